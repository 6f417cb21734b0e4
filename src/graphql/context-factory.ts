import { isAppError } from '../errors.js';
import { publicActor } from '../domain/auth/actor.js';
import { authenticate } from '../domain/auth/authenticate.js';
import type { Deps } from '../domain/deps.js';
import type { GraphQLContext } from './context.js';

/**
 * A refused credential does not fail the whole request: public fields still answer, and every
 * field that needs a caller fails with the refusal (401 unauthorized or 403 *_inactive).
 */
export async function buildContext(deps: Deps, authorization: string | null | undefined): Promise<GraphQLContext> {
  try {
    return { deps, actor: await authenticate(deps, authorization ?? undefined), authError: null };
  } catch (err) {
    if (isAppError(err)) return { deps, actor: publicActor, authError: err };
    throw err;
  }
}
