import diagnostics from 'node:diagnostics_channel';
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

/** The LISTEN connection is checked this often, and given this long to answer. */
const HEARTBEAT_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;

/**
 * Each notifier is published here once it listens, for a diagnostic tool preloaded into the process
 * (the benchmarks' memory probe reads `stats()`); nothing is sent while nobody subscribes.
 */
export const NOTIFIER_STARTED_CHANNEL = 'c2c-gateway:payment-notifier:started';
const notifierStarted = diagnostics.channel(NOTIFIER_STARTED_CHANNEL);

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
  /** The feeds following each key: one set per payment or project, shared by all its subscribers. */
  private readonly listeners = new Map<FeedKey, Set<Feed<Signal>>>();
  /** Every open feed and the keys it follows. */
  private readonly feeds = new Map<Feed<Signal>, FeedKey[]>();
  private client: pg.Client | null = null;
  /** The one reconnect loop while the connection is down. */
  private reconnecting: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stopped = false;

  private constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  static async start(url: string, log: Logger): Promise<PaymentNotifier> {
    const notifier = new PaymentNotifier(url, log);
    await notifier.connect();
    notifier.heartbeat = setInterval(() => void notifier.beat(), HEARTBEAT_MS);
    notifier.heartbeat.unref();
    if (notifierStarted.hasSubscribers) notifierStarted.publish(notifier);
    return notifier;
  }

  /**
   * One LISTEN connection. Every way it can end (an error, the server or the pooler closing it, a
   * heartbeat that gets no answer) leads to one reconnect loop; a connection that failed half-way
   * (connected, but LISTEN refused) is closed, never left holding an error handler that would later
   * tear down its successor. Found in the failover exercise (bench/failover.ts): a dying primary
   * reports twice ("server conn crashed?", then "terminating connection"), which started two loops.
   */
  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, keepAliveInitialDelayMillis: 10_000, application_name: LISTENER_NAME });
    client.on('notification', (msg) => (msg.channel === CREDENTIALS ? this.emit('credentials', { kind: 'credentials' }) : this.dispatch(msg.payload)));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('LISTEN connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES}`);
      await client.query(`LISTEN ${CREDENTIALS}`);
    } catch (err) {
      client.removeAllListeners('notification');
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  /** The current connection is gone (events of older or half-made connections are ignored). */
  private lost(client: pg.Client, err: Error) {
    if (this.stopped || this.client !== client) return;
    this.log.warn({ err }, 'payment notifier connection lost; reconnecting');
    this.client = null;
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    void this.reconnect();
  }

  private reconnect(): Promise<void> {
    this.reconnecting ??= (async () => {
      for (let delay = 200; !this.stopped && !this.client; delay = Math.min(delay * 2, 5000)) {
        await new Promise((r) => setTimeout(r, delay));
        await this.connect().catch((err) => this.log.warn({ err }, 'payment notifier reconnect failed'));
      }
      if (this.client) {
        this.log.info('payment notifier listening again');
        this.resync();
      }
    })().finally(() => {
      this.reconnecting = null;
    });
    return this.reconnecting;
  }

  /**
   * What was announced while no connection listened is lost: every subscriber re-checks. A
   * revocation is checked again; each followed payment is read again (checkoutStatus and
   * paymentUpdated send its current state, so a confirmation made meanwhile is not missed).
   */
  private resync() {
    this.emit('credentials', { kind: 'credentials' });
    for (const key of [...this.listeners.keys()]) {
      if (key.startsWith('payment:')) this.emit(key, { kind: 'payment', paymentId: key.slice('payment:'.length), projectId: '', eventId: null });
    }
  }

  /**
   * A connection whose peer vanished without closing it (a failed-over address, a dropped route)
   * says nothing until TCP gives up; a statement that gets no answer in time ends it instead.
   */
  private async beat() {
    const client = this.client;
    if (!client || this.stopped) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('LISTEN connection heartbeat timed out')), HEARTBEAT_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      this.lost(client, err as Error);
    } finally {
      clearTimeout(timer);
    }
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
    for (const feed of this.listeners.get(key) ?? []) feed.push(signal);
  }

  /**
   * Signals for the given keys, until the consumer closes the feed (or the notifier stops). The
   * listeners are registered on call, so nothing committed after this returns is missed; closing
   * removes every one of them.
   */
  feed(keys: FeedKey[]): Feed<Signal> {
    const feed = new Feed<Signal>(this.release);
    for (const key of keys) {
      let set = this.listeners.get(key);
      if (!set) this.listeners.set(key, (set = new Set()));
      set.add(feed);
    }
    this.feeds.set(feed, keys);
    if (this.stopped) feed.close();
    return feed;
  }

  private readonly release = (feed: Feed<Signal>) => {
    for (const key of this.feeds.get(feed) ?? []) {
      const set = this.listeners.get(key);
      set?.delete(feed);
      if (set?.size === 0) this.listeners.delete(key);
    }
    this.feeds.delete(feed);
  };

  /** Open feeds and listeners: what a subscription that was not released would leave behind. */
  stats(): { feeds: number; listeners: number } {
    let listeners = 0;
    for (const set of this.listeners.values()) listeners += set.size;
    return { feeds: this.feeds.size, listeners };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    // Ends every open subscription normally (clients see `complete`), so long-lived SSE responses let the server close.
    for (const feed of [...this.feeds.keys()]) feed.close();
    await this.client?.end().catch(() => undefined);
  }
}
