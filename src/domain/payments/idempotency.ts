import { createHash } from 'node:crypto';
import type pg from 'pg';
import { AppError } from '../../errors.js';
import { readIdempotencyKey, storeIdempotencyKey, tryLockIdempotencyKey } from './store/idempotency-keys.js';

export type Idempotency = { key: string; requestHash: string };

/**
 * The parsed JSON body in one spelling: object keys sorted at every depth, no whitespace. Two
 * bodies that differ only in key order or spacing are the same request (CONTRACT "Payments").
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What a key remembers of its first request: the hash of the body's canonical JSON. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Inside the creating transaction: the stored response to replay, or null to go ahead. A second
 * request with the key while the first is still running cannot take the key's lock and is refused
 * (409), never run twice. The read follows the lock in its own statement, so it sees what a
 * previous holder committed.
 */
export async function claimIdempotencyKey(client: pg.PoolClient, projectId: string, idem: Idempotency): Promise<string | null> {
  const locked = await tryLockIdempotencyKey(client, projectId, idem.key);
  if (!locked) throw new AppError('idempotency_conflict', 'A request with this Idempotency-Key is still being processed.');
  const existing = await readIdempotencyKey(client, projectId, idem.key);
  if (!existing || existing.expired) return null;
  if (existing.request_hash !== idem.requestHash) {
    throw new AppError('idempotency_conflict', 'This Idempotency-Key was used with a different request body.');
  }
  return existing.response_body;
}

/** The first success's response, replayed byte for byte for a day. */
export async function storeIdempotentResponse(client: pg.PoolClient, projectId: string, idem: Idempotency, responseBody: string, createdAt: Date): Promise<void> {
  await storeIdempotencyKey(client, projectId, idem.key, idem.requestHash, responseBody, new Date(createdAt.getTime() + IDEMPOTENCY_TTL_MS));
}
