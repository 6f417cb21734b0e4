import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Actor } from './auth/actor.js';

export type LimitKind = 'key' | 'ip' | 'linkIp';

// A public payment link may start at most this many payments a minute per payer IP, so nobody can
// drain a card's free amounts or daily cap from a link.
const LINK_PAYMENTS_PER_MINUTE = 10;

/** Fixed one-minute windows in Postgres, so every API process counts against the same buckets. */
export class RateLimits {
  private readonly limiters: Record<LimitKind, RateLimiterPostgres>;

  constructor(pool: pg.Pool, config: Config) {
    const make = (keyPrefix: string, points: number) =>
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        schemaName: 'rate_limit',
        tableName: 'buckets',
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix,
        points,
        duration: 60,
      });
    this.limiters = {
      key: make('key', config.rateLimitPerMinute),
      ip: make('ip', config.publicRateLimitPerMinute),
      linkIp: make('link', LINK_PAYMENTS_PER_MINUTE),
    };
  }

  /** Counts one request; over the limit → 429 `rate_limited` with the seconds to wait. */
  async consume(kind: LimitKind, key: string): Promise<void> {
    try {
      await this.limiters[kind].consume(key);
    } catch (res) {
      if (res instanceof RateLimiterRes) {
        const retryAfterSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
        throw new AppError('rate_limited', `Too many requests; retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
      }
      throw res;
    }
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
