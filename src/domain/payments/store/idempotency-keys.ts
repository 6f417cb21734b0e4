import type { Tx } from '../../../db/prisma.js';
import { statement, type Queryable } from '../../../db/statement.js';

/**
 * Idempotency keys (idempotency.ts decides with them), in the transaction of the create or decision
 * they answer: the key's lock, its stored answer and the store are read and written in it. Creates
 * run on a `pg` client, decisions in a Prisma interactive transaction: each statement is one SQL
 * text sent through either.
 */

export type KeyDb = Queryable | Tx;

export type StoredAnswer = { operation: string; request_hash: string; response_status: number; response_body: string; expired: boolean };

type OnPg<P extends unknown[], R> = (db: Queryable, ...values: P) => Promise<R[]>;

/** One SQL text sent through either door: a Prisma transaction, or the `pg` statement labelled for the log. */
function onEither<P extends unknown[], R extends Record<string, unknown>>(text: string, onPg: OnPg<P, R>) {
  return (db: KeyDb, ...values: P): Promise<R[]> => ('$queryRawUnsafe' in db ? db.$queryRawUnsafe<R[]>(text, ...values) : onPg(db, ...values));
}

const LOCK_KEY = 'SELECT pg_try_advisory_xact_lock(hashtextextended($1::text, 1)) AS locked';
const lockKey = onEither(LOCK_KEY, statement<[string], { locked: boolean }>('idempotency-lock', LOCK_KEY));
// An expired entry is deleted as it is read: the key is free again.
const READ_KEY = `WITH gone AS (DELETE FROM idempotency_keys WHERE scope = $1::text AND key = $2::text AND expires_at <= now() RETURNING 1)
   SELECT operation, request_hash, response_status, response_body, EXISTS (SELECT 1 FROM gone) AS expired
   FROM idempotency_keys WHERE scope = $1::text AND key = $2::text`;
const readKey = onEither(READ_KEY, statement<[string, string], StoredAnswer>('idempotency-read', READ_KEY));
const STORE_KEY = `INSERT INTO idempotency_keys (scope, project_id, key, operation, request_hash, response_status, response_body, expires_at)
   VALUES ($1::text, $2::uuid, $3::text, $4::text, $5::text, $6::int, $7::text, $8::timestamptz)`;
const storeKey = onEither(STORE_KEY, statement<[string, string | null, string, string, string, number, string, Date], never>('idempotency-store', STORE_KEY));

/** Tries the key's lock (until commit) without waiting: false when another transaction holds it. */
export async function tryLockIdempotencyKey(db: KeyDb, scope: string, key: string): Promise<boolean> {
  const [lock] = await lockKey(db, `${scope}:${key}`);
  return Boolean(lock?.locked);
}

/** The key's stored answer, if any; one past its expiry is deleted by this read and comes back `expired`. */
export async function readIdempotencyKey(db: KeyDb, scope: string, key: string): Promise<StoredAnswer | undefined> {
  const [existing] = await readKey(db, scope, key);
  return existing;
}

export type NewKey = { scope: string; key: string; operation: string; requestHash: string; status: number; body: string; expiresAt: Date };

/** Stores the first success's answer under the key until `expiresAt`. */
export async function storeIdempotencyKey(db: KeyDb, k: NewKey): Promise<void> {
  // The previous release reads a project's keys by project_id (migration 20261129030000_idempotent_decisions).
  const projectId = k.scope.startsWith('project:') ? k.scope.slice('project:'.length) : null;
  await storeKey(db, k.scope, projectId, k.key, k.operation, k.requestHash, k.status, k.body, k.expiresAt);
}
