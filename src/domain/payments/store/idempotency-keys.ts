import type pg from 'pg';
import { statement } from '../../../db/statement.js';

/**
 * Idempotency keys of payment creates (idempotency.ts decides with them), on the client of the
 * creating transaction: the key's lock and its stored response are read and written in it.
 */

export type StoredResponse = { request_hash: string; response_body: string; expired: boolean };

const lockKey = statement<[string], { locked: boolean }>('idempotency-lock', 'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 1)) AS locked');
// An expired entry is deleted as it is read: the key is free again.
const readKey = statement<[string, string], StoredResponse>(
  'idempotency-read',
  `WITH gone AS (DELETE FROM idempotency_keys WHERE project_id = $1 AND key = $2 AND expires_at <= now() RETURNING 1)
   SELECT request_hash, response_body, EXISTS (SELECT 1 FROM gone) AS expired FROM idempotency_keys WHERE project_id = $1 AND key = $2`,
);
const storeKey = statement<[string, string, string, string, Date], never>(
  'idempotency-store',
  `INSERT INTO idempotency_keys (project_id, key, request_hash, response_status, response_body, expires_at) VALUES ($1, $2, $3, 201, $4, $5)`,
);

/** Tries the key's lock (until commit) without waiting: false when another transaction holds it. */
export async function tryLockIdempotencyKey(client: pg.PoolClient, projectId: string, key: string): Promise<boolean> {
  const [lock] = await lockKey(client, `${projectId}:${key}`);
  return Boolean(lock?.locked);
}

/** The key's stored response, if any; one past its expiry is deleted by this read and comes back `expired`. */
export async function readIdempotencyKey(client: pg.PoolClient, projectId: string, key: string): Promise<StoredResponse | undefined> {
  const [existing] = await readKey(client, projectId, key);
  return existing;
}

/** Stores the first success's response under the key until `expiresAt`. */
export async function storeIdempotencyKey(client: pg.PoolClient, projectId: string, key: string, requestHash: string, responseBody: string, expiresAt: Date): Promise<void> {
  await storeKey(client, projectId, key, requestHash, responseBody, expiresAt);
}
