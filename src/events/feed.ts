/**
 * A push-to-pull queue for one subscriber. Unlike an async generator, `return()` takes effect at
 * once even while a `next()` is waiting: the waiting call resolves `done` and `onClose` releases
 * every listener the feed holds. That is what lets a client that leaves free its subscription.
 */
export class Feed<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | null = null;
  private closed = false;

  /** `onClose` gets the feed, so one function can serve every feed of a notifier. */
  constructor(private readonly onClose: (feed: Feed<T>) => void) {}

  push(value: T): void {
    if (this.closed) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ done: false, value });
    } else {
      this.queue.push(value);
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.queue.shift()! });
    if (this.closed) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.onClose(this);
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.({ done: true, value: undefined });
  }

  return(): Promise<IteratorResult<T>> {
    this.close();
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
