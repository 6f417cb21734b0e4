import type pg from 'pg';
import type { Config } from '../config.js';
import { statement } from '../db/hot/query.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Actor } from './auth/actor.js';

export type LimitKind = 'key' | 'ip' | 'linkIp';

// A public payment link may start at most this many payments a minute per payer IP, so nobody can
// drain a card's free amounts or daily cap from a link.
const LINK_PAYMENTS_PER_MINUTE = 10;
const WINDOW_MS = 60_000;
// How often this process adds its counts to the shared buckets and reads the others' back. Other
// processes' requests are seen this late, so all processes together may let through up to
// (processes − 1) × this interval's worth of requests more than the limit; one process alone is exact.
const SYNC_MS = 100;

type Bucket = { window: number; shared: number; pending: number };

// Adds this process's counts and returns every process's total for the window, in one statement
// for all buckets; a bucket of an earlier window starts over.
const addCounts = statement<[string[], number[], string[]], { key: string; points: number }>(
  'rate-limit-add',
  `INSERT INTO rate_limit.buckets AS b (key, points, expire)
   SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[])
   ON CONFLICT (key) DO UPDATE SET
     points = CASE WHEN b.expire = excluded.expire THEN b.points + excluded.points ELSE excluded.points END,
     expire = excluded.expire
   RETURNING key, points`,
);

/**
 * Fixed one-minute windows (aligned to the clock), counted in memory and shared through Postgres
 * every SYNC_MS, so every API process counts against the same buckets without a round trip per
 * request.
 */
export class RateLimits {
  private readonly points: Record<LimitKind, number>;
  private readonly buckets = new Map<string, Bucket>();
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    config: Config,
    private readonly log: Logger,
  ) {
    this.points = { key: config.rateLimitPerMinute, ip: config.publicRateLimitPerMinute, linkIp: LINK_PAYMENTS_PER_MINUTE };
  }

  /** Counts one request; over the limit → 429 `rate_limited` with the seconds to wait. */
  async consume(kind: LimitKind, key: string): Promise<void> {
    const now = Date.now();
    const window = Math.floor(now / WINDOW_MS);
    const id = `${kind}:${key}`;
    let bucket = this.buckets.get(id);
    if (!bucket || bucket.window !== window) {
      bucket = { window, shared: 0, pending: 0 };
      this.buckets.set(id, bucket);
    }
    if (bucket.shared + bucket.pending >= this.points[kind]) {
      const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
      throw new AppError('rate_limited', `Too many requests; retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
    }
    bucket.pending++;
    this.timer ??= setTimeout(() => void this.sync(), SYNC_MS);
  }

  /** Shares the pending counts; a failed sync keeps them pending for the next one. */
  private sync(): Promise<void> {
    this.timer = null;
    this.syncing ??= this.flush().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async flush(): Promise<void> {
    const window = Math.floor(Date.now() / WINDOW_MS);
    const sent: [string, Bucket, number][] = [];
    for (const [id, bucket] of this.buckets) {
      if (bucket.window < window) this.buckets.delete(id);
      else if (bucket.pending > 0) sent.push([id, bucket, bucket.pending]);
    }
    if (sent.length === 0) return;
    try {
      const rows = await addCounts(
        this.pool,
        sent.map(([id]) => id),
        sent.map(([, , n]) => n),
        sent.map(([, b]) => String((b.window + 1) * WINDOW_MS)),
      );
      const totals = new Map(rows.map((r) => [r.key, r.points]));
      for (const [id, bucket, n] of sent) {
        // The total includes what was just sent; requests counted meanwhile stay pending.
        bucket.pending -= n;
        bucket.shared = totals.get(id) ?? bucket.shared + n;
      }
    } catch (err) {
      this.log.warn({ err }, 'rate limits: could not share counts; retrying');
      this.timer ??= setTimeout(() => void this.sync(), SYNC_MS);
    }
  }

  /** Shares what is still pending (shutdown). */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.syncing;
    await this.flush();
  }
}

/** The caller's bucket: its credential for keyed callers, its IP for the public. */
export function limitBucket(actor: Actor, ip: string | undefined): { kind: LimitKind; key: string } | null {
  switch (actor.kind) {
    case 'merchant':
    case 'project':
      return { kind: 'key', key: actor.keyId };
    case 'device':
      return { kind: 'key', key: actor.deviceId };
    case 'public':
      return { kind: 'ip', key: ip ?? actor.ip ?? 'unknown' };
    case 'operator':
      return null;
  }
}
