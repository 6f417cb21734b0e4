import { isAppError, type AppError } from '../errors.js';
import type { Actor } from '../domain/auth/actor.js';
import { authenticate, authenticateSession, type SessionCredential } from '../domain/auth/authenticate.js';
import { limitBucket } from '../domain/rate-limits.js';
import type { Deps } from '../domain/deps.js';
import { graphqlSession } from '../http/session-cookie.js';
import type { GraphQLContext } from './context.js';

/**
 * A refused credential does not fail the whole request: public fields still answer, and every
 * field that needs a caller fails with the refusal (401 unauthorized or 403 *_inactive). The
 * dashboard session cookie counts only without an Authorization header; a live session on a
 * request without the CSRF header is such a refusal (the checkout page, opened in a browser that
 * is signed in to the dashboard, still gets its public fields).
 */
export async function buildContext(
  deps: Deps,
  authorization: string | null | undefined,
  ip?: string,
  session?: SessionCredential | null,
): Promise<GraphQLContext> {
  let actor: Actor = { kind: 'public', ip };
  let authError: AppError | null = null;
  try {
    if (!authorization && session) {
      const outcome = await authenticateSession(deps, session);
      if ('actor' in outcome) actor = outcome.actor;
      else authError = outcome.refused;
    } else {
      const authenticated = await authenticate(deps, authorization ?? undefined);
      if (authenticated.kind !== 'public') actor = authenticated;
    }
  } catch (err) {
    if (!isAppError(err)) throw err;
    authError = err;
  }
  // Over the limit, the whole request is refused (429 rate_limited), public fields included.
  const bucket = limitBucket(actor, ip);
  if (bucket) await deps.limits?.consume(bucket.kind, bucket.key);
  return { deps, actor, authError };
}

/**
 * An HTTP request's context, whichever path serves it (Yoga, or the SSE path of sse.ts): the
 * Authorization header, else the dashboard session cookie with its CSRF header.
 */
export function httpContext(deps: Deps, header: (name: string) => string | null, ip: string | undefined): Promise<GraphQLContext> {
  return buildContext(deps, header('authorization'), ip, graphqlSession(deps.config, header));
}
