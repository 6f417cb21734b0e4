import type pg from 'pg';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Actor } from './auth/actor.js';
import { reserveRequests } from './rate-limits/store/buckets.js';

export type LimitKind = 'key' | 'ip' | 'linkIp' | 'manualWebhook';

// A public payment link may start at most this many payments a minute per payer IP, so nobody can
// drain a card's free amounts or daily cap from a link.
const LINK_PAYMENTS_PER_MINUTE = 10;
// Manual webhook sends (redeliverWebhook, sendTestWebhook) a project may make a minute: each is a
// POST the merchant waits on, so a script cannot turn the API into a flood at its own endpoint.
export const MANUAL_WEBHOOKS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;
// A process reserves requests from the shared bucket in grants that double from 1 up to this
// share of the limit (and at most MAX_GRANT). A bucket whose grants reached PREFETCH_FROM reserves
// the next one when a quarter of the last is left, so its requests do not wait on the database.
// What a process holds unused (under 1.25 grants) is all the others can be refused early: with N
// processes the bucket lets through at least limit × (1 − N × 1.25 × GRANT_SHARE), never more than the limit.
const GRANT_SHARE = 0.01;
const MAX_GRANT = 64;
const PREFETCH_FROM = 8;

type Bucket = {
  window: number;
  /** Requests reserved from the shared bucket and not used yet. */
  allowance: number;
  /** Size of the next reservation. */
  grant: number;
  /** Requests waiting for the reservation in flight. */
  waiting: number;
  /** The shared bucket is used up for this window: refuse without asking again. */
  exhausted: boolean;
  reserving: Promise<void> | null;
};

/**
 * Fixed one-minute windows (aligned to the clock) counted in Postgres, so the limit holds across
 * every API process: a process spends requests it reserved from the shared count and asks for
 * more only when they run out; concurrent requests of one bucket share one reservation.
 */
export class RateLimits {
  private readonly points: Record<LimitKind, number>;
  private buckets = new Map<string, Bucket>();
  private window = 0;

  constructor(
    private readonly pool: pg.Pool,
    config: Config,
    private readonly log: Logger,
  ) {
    this.points = {
      key: config.rateLimitPerMinute,
      ip: config.publicRateLimitPerMinute,
      linkIp: LINK_PAYMENTS_PER_MINUTE,
      manualWebhook: MANUAL_WEBHOOKS_PER_MINUTE,
    };
  }

  /** Counts one request; over the limit → 429 `rate_limited` with the seconds to wait. */
  async consume(kind: LimitKind, key: string): Promise<void> {
    const id = `${kind}:${key}`;
    for (;;) {
      const now = Date.now();
      const bucket = this.bucketOf(id, now);
      if (bucket.allowance > 0) {
        bucket.allowance--;
        if (bucket.grant >= PREFETCH_FROM && bucket.allowance * 4 < bucket.grant && !bucket.exhausted) void this.reserveOnce(id, bucket, kind);
        return;
      }
      if (bucket.exhausted) throw rateLimited(now);
      bucket.waiting++;
      try {
        await this.reserveOnce(id, bucket, kind);
      } finally {
        bucket.waiting--;
      }
    }
  }

  /** The bucket's reservation in flight, or a new one: one at a time per bucket. */
  private reserveOnce(id: string, bucket: Bucket, kind: LimitKind): Promise<void> {
    bucket.reserving ??= this.reserve(id, bucket, this.points[kind]).finally(() => {
      bucket.reserving = null;
    });
    return bucket.reserving;
  }

  private bucketOf(id: string, now: number): Bucket {
    const window = Math.floor(now / WINDOW_MS);
    // A new window: the last one's buckets are done with (reservations in flight keep their own).
    if (window !== this.window) {
      this.window = window;
      this.buckets = new Map();
    }
    let bucket = this.buckets.get(id);
    if (!bucket) {
      bucket = { window, allowance: 0, grant: 1, waiting: 0, exhausted: false, reserving: null };
      this.buckets.set(id, bucket);
    }
    return bucket;
  }

  /** One reservation for everyone waiting (at least the next grant); a failed one lets them pass. */
  private async reserve(id: string, bucket: Bucket, limit: number): Promise<void> {
    const want = Math.min(limit, Math.max(bucket.grant, bucket.waiting));
    try {
      const [row] = await reserveRequests(this.pool, id, want, limit, String((bucket.window + 1) * WINDOW_MS));
      const granted = row?.granted ?? 0;
      bucket.allowance += granted;
      if (granted < want) bucket.exhausted = true;
      bucket.grant = Math.min(bucket.grant * 2, maxGrant(limit));
    } catch (err) {
      // Failing open: a database hiccup is not the caller's fault; the count resumes with it.
      this.log.warn({ err }, 'rate limits: could not reserve from the shared count; letting requests through');
      bucket.allowance += want;
    }
  }

  /** Waits for reservations in flight (shutdown, before the pool closes). */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.buckets.values()].map((b) => b.reserving));
  }
}

function maxGrant(limit: number): number {
  return Math.max(1, Math.min(MAX_GRANT, Math.floor(limit * GRANT_SHARE)));
}

function rateLimited(now: number): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((WINDOW_MS - (now % WINDOW_MS)) / 1000));
  return new AppError('rate_limited', `Too many requests; retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
}

/** The caller's bucket: its credential for keyed callers, its IP for the public. */
export function limitBucket(actor: Actor, ip: string | undefined): { kind: LimitKind; key: string } | null {
  switch (actor.kind) {
    case 'merchant':
    case 'project':
      return { kind: 'key', key: actor.keyId };
    case 'device':
      return { kind: 'key', key: actor.deviceId };
    case 'user':
      return { kind: 'key', key: actor.userId };
    case 'public':
      return { kind: 'ip', key: ip ?? actor.ip ?? 'unknown' };
    case 'operator':
      return null;
  }
}
