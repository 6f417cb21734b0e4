import { statement } from '../../../db/statement.js';

/**
 * The shared request counts of the rate limits (src/domain/rate-limits.ts decides with them): one
 * row per bucket in the unlogged table `rate_limit.buckets`, one short upsert per grant, on the pool.
 */

// Adds `want` to the window's shared count and returns how many of them still fit under the limit.
// The count is never capped, so the grant follows from the new total alone; a bucket of an earlier
// window starts over.
export const reserveRequests = statement<[key: string, want: number, limit: number, expire: string], { granted: number }>(
  'rate-limit-reserve',
  `INSERT INTO rate_limit.buckets AS b (key, points, expire) VALUES ($1, $2, $4)
   ON CONFLICT (key) DO UPDATE SET
     points = CASE WHEN b.expire >= excluded.expire THEN b.points + excluded.points ELSE excluded.points END,
     expire = GREATEST(b.expire, excluded.expire)
   RETURNING LEAST($2::int, GREATEST(0, $3::int - (b.points - $2::int)))::int AS granted`,
);
