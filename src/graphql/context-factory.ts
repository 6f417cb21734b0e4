import { isAppError, type AppError } from '../errors.js';
import type { Actor } from '../domain/auth/actor.js';
import { authenticate } from '../domain/auth/authenticate.js';
import { limitBucket } from '../domain/rate-limits.js';
import type { Deps } from '../domain/deps.js';
import type { GraphQLContext } from './context.js';

/**
 * A refused credential does not fail the whole request: public fields still answer, and every
 * field that needs a caller fails with the refusal (401 unauthorized or 403 *_inactive).
 */
export async function buildContext(deps: Deps, authorization: string | null | undefined, ip?: string): Promise<GraphQLContext> {
  let actor: Actor;
  let authError: AppError | null = null;
  try {
    const authenticated = await authenticate(deps, authorization ?? undefined);
    actor = authenticated.kind === 'public' ? { kind: 'public', ip } : authenticated;
  } catch (err) {
    if (!isAppError(err)) throw err;
    actor = { kind: 'public', ip };
    authError = err;
  }
  // Over the limit, the whole request is refused (429 rate_limited), public fields included.
  const bucket = limitBucket(actor, ip);
  if (bucket) await deps.limits?.consume(bucket.kind, bucket.key);
  return { deps, actor, authError };
}
