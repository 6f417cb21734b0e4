import type { AppError } from '../errors.js';
import type { Actor } from '../domain/auth/actor.js';
import type { Deps } from '../domain/deps.js';

/** Built once per request or socket: the caller is resolved before any field runs. */
export type GraphQLContext = {
  deps: Deps;
  actor: Actor;
  /** Why the presented credential was refused (401/403); fields needing a caller fail with it. */
  authError: AppError | null;
};
