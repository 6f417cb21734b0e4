/**
 * One timer for every idle stream of a process (SSE responses, WebSockets): each tick pings one
 * slot of the streams, so every stream hears from the server once a period, with no timer of its
 * own, and 10,000 open checkout pages never get 10,000 writes in one tick.
 */
export class KeepAlive<T> {
  private readonly slots: Set<T>[];
  private readonly tickMs: number;
  private count = 0;
  private nextSlot = 0;
  private turn = 0;
  private timer: NodeJS.Timeout | null = null;

  /** `ping` must not throw for a stream that has gone; the caller removes it (`delete`) when it closes. */
  constructor(
    private readonly ping: (stream: T) => void,
    periodMs: number,
    slotCount = 12,
  ) {
    this.slots = Array.from({ length: slotCount }, () => new Set<T>());
    this.tickMs = Math.max(1, Math.round(periodMs / slotCount));
  }

  /** Once per stream, when it opens. */
  add(stream: T): void {
    this.slots[this.nextSlot]!.add(stream);
    this.nextSlot = (this.nextSlot + 1) % this.slots.length;
    this.count++;
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.tickMs);
      // Streams keep the process alive, never their keep-alive.
      this.timer.unref();
    }
  }

  delete(stream: T): void {
    for (const slot of this.slots) {
      if (!slot.delete(stream)) continue;
      this.count--;
      if (this.count === 0) this.stop();
      return;
    }
  }

  get size(): number {
    return this.count;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private tick(): void {
    const slot = this.slots[this.turn]!;
    this.turn = (this.turn + 1) % this.slots.length;
    for (const stream of slot) this.ping(stream);
  }
}
