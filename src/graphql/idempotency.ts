import { Answer, keyedRequest, type Idempotent } from '../domain/payments/idempotency.js';

/**
 * `idempotencyKey` on GraphQL decisions and refunds (docs/integration.md "Idempotency"), the same
 * mechanism as REST's `Idempotency-Key` (docs/decisions.md "Idempotency keys for every decision").
 * What a key stores for GraphQL is the id of the object the first call returned, not a rendered
 * result: a GraphQL answer is the caller's selection over a live graph (a retry may select other
 * fields), so a replay resolves the same object again, as it is now.
 */

export const IDEMPOTENCY_KEY_DESCRIPTION =
  'Makes a retry safe (1..255 characters, kept 24 h in your key space): the same key with the same arguments returns the first call’s result without deciding again; with other arguments, another mutation or another target → idempotency_conflict (also while the first call is still running). Errors are not kept.';

/**
 * Runs a mutation's decision with the caller's key (when sent), keyed by the mutation's name, its
 * target (the id it acts on; null when `args` hold it) and `args`, and gives `refOf` of the result
 * (the ids to return, as plain JSON): this call's, or the first call's on a repeat.
 */
export async function decided<T, R>(
  key: string | null | undefined,
  mutation: string,
  target: string | null,
  args: unknown,
  refOf: (result: T) => R,
  run: (idem: Idempotent<T> | undefined) => Promise<T | Answer>,
): Promise<R> {
  const keyed = keyedRequest(key, 'idempotencyKey', target === null ? `graphql ${mutation}` : `graphql ${mutation} ${target}`, args);
  const out = await run(keyed && { ...keyed, render: (r) => new Answer(200, JSON.stringify(refOf(r))) });
  return out instanceof Answer ? (JSON.parse(out.body) as R) : refOf(out);
}
