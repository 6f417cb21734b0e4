import { EventEmitter, on } from 'node:events';
import pg from 'pg';
import type { Tx } from '../db/prisma.js';
import type { Logger } from '../logger.js';

const CHANNEL = 'payment_changes';

/** What crosses processes: ids only (NOTIFY payloads are small); subscribers re-read the rows. */
export type PaymentChange = { paymentId: string; projectId: string; eventId: string | null };

/**
 * Announces a payment change to every process. NOTIFY is transactional: listeners hear it only
 * if and when the transaction commits, so subscribers never see a rolled-back state.
 */
export async function notifyPaymentChanged(tx: Tx, change: { id: string; projectId: string }, eventId: string | null = null) {
  const payload = JSON.stringify({ p: change.id, j: change.projectId, e: eventId });
  await tx.$executeRaw`SELECT pg_notify(${CHANNEL}, ${payload})`;
}

/** One LISTEN connection per API process, fanned out to local subscribers by payment and project. */
export class PaymentNotifier {
  private readonly emitter = new EventEmitter();
  private client: pg.Client | null = null;
  private stopped = false;
  private readonly aborter = new AbortController();

  private constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {
    this.emitter.setMaxListeners(0);
  }

  static async start(url: string, log: Logger): Promise<PaymentNotifier> {
    const notifier = new PaymentNotifier(url, log);
    await notifier.connect();
    return notifier;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    client.on('notification', (msg) => this.dispatch(msg.payload));
    client.on('error', (err) => {
      this.log.warn({ err }, 'payment notifier connection lost; reconnecting');
      void this.reconnect();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
  }

  private async reconnect(): Promise<void> {
    const old = this.client;
    this.client = null;
    await old?.end().catch(() => undefined);
    for (let delay = 200; !this.stopped && !this.client; delay = Math.min(delay * 2, 5000)) {
      await new Promise((r) => setTimeout(r, delay));
      await this.connect().catch((err) => this.log.warn({ err }, 'payment notifier reconnect failed'));
    }
  }

  private dispatch(payload: string | undefined) {
    try {
      const raw = JSON.parse(payload ?? '') as { p: string; j: string; e: string | null };
      const change: PaymentChange = { paymentId: raw.p, projectId: raw.j, eventId: raw.e };
      this.emitter.emit(`payment:${change.paymentId}`, change);
      this.emitter.emit(`project:${change.projectId}`, change);
    } catch (err) {
      this.log.warn({ err, payload }, 'unreadable payment notification');
    }
  }

  /**
   * Changes of one payment or one project's payments, until the consumer stops iterating. The
   * listener is registered on call, so nothing committed after this returns is missed.
   */
  changes(key: `payment:${string}` | `project:${string}`): AsyncIterableIterator<PaymentChange> {
    const events = on(this.emitter, key, { signal: this.aborter.signal });
    const iterator: AsyncIterableIterator<PaymentChange> = {
      [Symbol.asyncIterator]: () => iterator,
      next: async () => {
        try {
          const r = await events.next();
          return r.done ? { done: true, value: undefined } : { done: false, value: (r.value as [PaymentChange])[0] };
        } catch (err) {
          // Shutting down: the stream ends normally (clients see `complete`), it did not fail.
          if ((err as Error).name === 'AbortError') return { done: true, value: undefined };
          throw err;
        }
      },
      return: async () => {
        await events.return?.();
        return { done: true, value: undefined };
      },
    };
    return iterator;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // Ends every open subscription, so long-lived SSE responses let the server close.
    this.aborter.abort();
    this.emitter.removeAllListeners();
    await this.client?.end().catch(() => undefined);
  }
}
