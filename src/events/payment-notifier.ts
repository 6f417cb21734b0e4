import pg from 'pg';
import type { Tx } from '../db/prisma.js';
import type { Logger } from '../logger.js';
import { Feed } from './feed.js';

const CHANGES = 'payment_changes';
/** Sent by database triggers when a key or device is revoked or a project or merchant deactivated. */
const CREDENTIALS = 'credential_changes';

/** What crosses processes: ids only (NOTIFY payloads are small); subscribers re-read the rows. */
export type PaymentChange = { kind: 'payment'; paymentId: string; projectId: string; eventId: string | null };
/** Some credential changed state (or notifications may have been missed): subscribers re-check theirs. */
export type CredentialCheck = { kind: 'credentials' };
export type Signal = PaymentChange | CredentialCheck;

/** The LISTEN connection's application_name, as pg_stat_activity (and a pooler's client list) shows it. */
export const LISTENER_NAME = 'gateway-listen';

export type FeedKey = `payment:${string}` | `project:${string}` | 'credentials';

/**
 * Announces a payment change to every process. NOTIFY is transactional: listeners hear it only
 * if and when the transaction commits, so subscribers never see a rolled-back state.
 */
export async function notifyPaymentChanged(tx: Tx, change: { id: string; projectId: string }, eventId: string | null = null) {
  await tx.$executeRaw`SELECT pg_notify(${CHANGES}, ${changePayload(change, eventId)})`;
}

/** The same for many payments, in one statement. */
export async function notifyPaymentsChanged(tx: Tx, changes: { id: string; projectId: string; eventId: string | null }[]) {
  if (changes.length === 0) return;
  const payloads = changes.map((c) => changePayload(c, c.eventId));
  await tx.$executeRaw`SELECT pg_notify(${CHANGES}, payload) FROM unnest(${payloads}::text[]) AS payload`;
}

function changePayload(change: { id: string; projectId: string }, eventId: string | null): string {
  return JSON.stringify({ p: change.id, j: change.projectId, e: eventId });
}

/**
 * One LISTEN connection per API process, fanned out to local subscribers by payment and project.
 * It needs a session of its own: its URL is DATABASE_DIRECT_URL, never a transaction pooler (which
 * would run the LISTEN on a server connection it then lends to other clients). NOTIFY, sent inside
 * the writers' transactions, goes through the pooler like any statement.
 */
export class PaymentNotifier {
  private readonly listeners = new Map<FeedKey, Set<(s: Signal) => void>>();
  private readonly feeds = new Set<Feed<Signal>>();
  private client: pg.Client | null = null;
  private stopped = false;

  private constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  static async start(url: string, log: Logger): Promise<PaymentNotifier> {
    const notifier = new PaymentNotifier(url, log);
    await notifier.connect();
    return notifier;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, application_name: LISTENER_NAME });
    client.on('notification', (msg) => (msg.channel === CREDENTIALS ? this.emit('credentials', { kind: 'credentials' }) : this.dispatch(msg.payload)));
    client.on('error', (err) => {
      this.log.warn({ err }, 'payment notifier connection lost; reconnecting');
      void this.reconnect();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANGES}`);
    await client.query(`LISTEN ${CREDENTIALS}`);
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
    // A revocation may have been announced while no connection listened.
    if (this.client) this.emit('credentials', { kind: 'credentials' });
  }

  private dispatch(payload: string | undefined) {
    try {
      const raw = JSON.parse(payload ?? '') as { p: string; j: string; e: string | null };
      const change: PaymentChange = { kind: 'payment', paymentId: raw.p, projectId: raw.j, eventId: raw.e };
      this.emit(`payment:${change.paymentId}`, change);
      this.emit(`project:${change.projectId}`, change);
    } catch (err) {
      this.log.warn({ err, payload }, 'unreadable payment notification');
    }
  }

  private emit(key: FeedKey, signal: Signal) {
    for (const listener of this.listeners.get(key) ?? []) listener(signal);
  }

  /**
   * Signals for the given keys, until the consumer closes the feed (or the notifier stops). The
   * listeners are registered on call, so nothing committed after this returns is missed; closing
   * removes every one of them.
   */
  feed(keys: FeedKey[]): Feed<Signal> {
    const listener = (s: Signal) => feed.push(s);
    const feed: Feed<Signal> = new Feed(() => {
      this.feeds.delete(feed);
      for (const key of keys) {
        const set = this.listeners.get(key);
        set?.delete(listener);
        if (set?.size === 0) this.listeners.delete(key);
      }
    });
    for (const key of keys) {
      let set = this.listeners.get(key);
      if (!set) this.listeners.set(key, (set = new Set()));
      set.add(listener);
    }
    if (this.stopped) feed.close();
    else this.feeds.add(feed);
    return feed;
  }

  /** Open feeds and listeners: what a subscription that was not released would leave behind. */
  stats(): { feeds: number; listeners: number } {
    let listeners = 0;
    for (const set of this.listeners.values()) listeners += set.size;
    return { feeds: this.feeds.size, listeners };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // Ends every open subscription normally (clients see `complete`), so long-lived SSE responses let the server close.
    for (const feed of [...this.feeds]) feed.close();
    await this.client?.end().catch(() => undefined);
  }
}
