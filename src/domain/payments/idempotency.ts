import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import { readIdempotencyKey, storeIdempotencyKey, tryLockIdempotencyKey, type KeyDb } from './store/idempotency-keys.js';

/**
 * Idempotency keys (docs/integration.md "Idempotency"; docs/decisions.md "Idempotency keys for
 * every decision"): one mechanism for the payment create and every decision. A key belongs to a
 * scope, the caller's key space; it remembers the operation it was sent for (the door, the verb and
 * its target) and the hash of its canonical body; the first success's answer is stored with it in
 * the transaction that did the work, and replayed for 24 h to the same request. The same key with
 * another operation or body is 409 `idempotency_conflict`, as is a second request while the first
 * still holds the key. Errors roll back with their transaction, so they are never stored.
 */

/**
 * The parsed JSON body in one spelling: object keys sorted at every depth, no whitespace. Two
 * bodies that differ only in key order or spacing are the same request (docs/integration.md
 * "Idempotency").
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What a key remembers of its first request's body: the hash of its canonical JSON. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;

/** A door's answer, stored with the key and replayed as it is: REST's status and exact bytes; GraphQL's the result's id. */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {}
}

/**
 * What a door knows of a keyed request: the key, the operation it is sent for (the door and verb
 * with its target, `POST /v1/payments/{id}/refunds <payment id>`, `graphql recordRefund <payment
 * id>`) and its body's hash.
 */
export type KeyedRequest = { key: string; operation: string; requestHash: string };

/** A keyed request and how its door answers the result: that answer is what a repeat gets. */
export type Idempotent<T> = KeyedRequest & { render: (result: T) => Answer };

/**
 * The keyed request for `operation` when the caller sent a key (`field` names where: the
 * `Idempotency-Key` header, the `idempotencyKey` argument); undefined when it did not.
 */
export function keyedRequest(key: string | null | undefined, field: string, operation: string, body: unknown): KeyedRequest | undefined {
  if (key === undefined || key === null) return undefined;
  if (key.length < 1 || key.length > MAX_KEY_LENGTH) throw AppError.invalid([{ field, message: `must be 1..${MAX_KEY_LENGTH} characters` }]);
  return { key, operation, requestHash: requestHash(body) };
}

/**
 * Whose key space a key is in: a project key's project (all its keys, old and new, are one shop
 * server), the merchant key's merchant, a dashboard user's own (a user's retry is that user's: a
 * colleague's key never answers with a decision the audit log says another person made).
 */
export function keyScope(actor: Actor): string {
  switch (actor.kind) {
    case 'project':
      return `project:${actor.projectId}`;
    case 'merchant':
      return `merchant:${actor.merchantId}`;
    case 'user':
      return `user:${actor.userId}`;
    default:
      throw new Error(`no idempotency key space for a ${actor.kind} caller`);
  }
}

/** A public checkout's key space: the payment its token names. */
export const checkoutKeyScope = (paymentId: string) => `payment:${paymentId}`;
/** A public link's key space: the link and the payer's address (another payer's key never answers with this payer's checkout). */
export const linkKeyScope = (linkId: string, clientAddress: string) => `link:${linkId}:${clientAddress}`;

/**
 * Inside the transaction that does the work: the stored answer to replay, or null to go ahead. A
 * second request with the key while the first is still running cannot take the key's lock and is
 * refused (409), never run twice. The read follows the lock in its own statement, so it sees what a
 * previous holder committed.
 */
export async function claimIdempotencyKey(db: KeyDb, scope: string, req: KeyedRequest): Promise<Answer | null> {
  const locked = await tryLockIdempotencyKey(db, scope, req.key);
  if (!locked) throw new AppError('idempotency_conflict', 'A request with this Idempotency-Key is still being processed.');
  const existing = await readIdempotencyKey(db, scope, req.key);
  if (!existing || existing.expired) return null;
  if (existing.operation !== req.operation) {
    throw new AppError('idempotency_conflict', 'This Idempotency-Key was used for another request (another route, mutation or target).');
  }
  if (existing.request_hash !== req.requestHash) {
    throw new AppError('idempotency_conflict', 'This Idempotency-Key was used with a different request body.');
  }
  return new Answer(existing.response_status, existing.response_body);
}

/** The first success's answer, replayed for a day. */
export async function storeIdempotentAnswer(db: KeyDb, scope: string, req: KeyedRequest, answer: Answer): Promise<void> {
  await storeIdempotencyKey(db, {
    scope,
    key: req.key,
    operation: req.operation,
    requestHash: req.requestHash,
    status: answer.status,
    body: answer.body,
    expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
  });
}

/**
 * `run` under the key, inside the caller's transaction on `db`: the stored answer of an earlier
 * success, or `run`'s result rendered by the door and stored with the key before the commit.
 */
export async function underKey<T>(db: KeyDb, scope: string, idem: Idempotent<T>, run: () => Promise<T>): Promise<Answer> {
  const replay = await claimIdempotencyKey(db, scope, idem);
  if (replay) return replay;
  const answer = idem.render(await run());
  await storeIdempotentAnswer(db, scope, idem, answer);
  return answer;
}
