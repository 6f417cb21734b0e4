import { credentialByHash } from './store/credentials.js';
import { AppError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { SECRET_TOKEN_PATTERN } from '../users/session-rules.js';
import { sessionByHash, touchSession } from '../users/store/sessions.js';
import { publicActor, type Actor, type UserActor } from './actor.js';
import { authCacheOf, type AuthOutcome } from './auth-cache.js';
import { classifyCredential, hashCredential } from './credentials.js';
import { isUserRole } from './roles.js';

const BEARER = /^Bearer ([^\s]+)$/;

/**
 * A dashboard session cookie as a door read it: the token, and whether the request proved it was
 * sent by the dashboard's own pages (`csrf`: the header x-graphql-yoga-csrf on GraphQL and on REST
 * changes; a same-origin upgrade for graphql-ws).
 */
export type SessionCredential = { token: string; csrf: boolean };

const CSRF_REFUSAL = 'A request authenticated by the dashboard session cookie must carry the header x-graphql-yoga-csrf (any value).';

/**
 * Resolves an Authorization header to an Actor. No header → the public actor; anything present
 * but unusable (malformed, unknown, revoked) → 401; a known key of an inactive merchant or
 * project → 403. One indexed lookup by hash, or none while the process's cache holds the answer
 * (cleared on every revocation or deactivation, and never older than half a second).
 */
export async function authenticate(deps: Deps, header: string | undefined, session?: SessionCredential | null): Promise<Actor> {
  if (header === undefined || header === '') {
    // A cookie rides along on every request of the browser, public pages included: one that does
    // not authenticate leaves the caller public, and a route that needs a caller answers 401.
    const outcome = session ? await authenticateSession(deps, session) : null;
    return outcome && 'actor' in outcome ? outcome.actor : publicActor;
  }
  const match = BEARER.exec(header.trim());
  const token = match?.[1];
  const kind = token ? classifyCredential(token) : undefined;
  if (!token || !kind) throw new AppError('unauthorized');
  const hash = hashCredential(token);
  const cache = authCacheOf(deps);
  const load = () => lookup(deps, kind, hash);
  const outcome = cache ? await cache.resolve(hash, load) : await load();
  if ('refused' in outcome) throw new AppError(outcome.refused);
  return outcome.actor;
}

async function lookup(deps: Deps, kind: 'merchant' | 'project' | 'device', hash: string): Promise<AuthOutcome> {
  const row = await credentialByHash(deps.pool, kind, hash);
  if (!row || row.revoked) return { refused: 'unauthorized' };
  if (!row.merchant_active) return { refused: 'merchant_inactive' };
  if (kind === 'merchant') return { actor: { kind: 'merchant', merchantId: row.merchant_id, keyId: row.id } };
  if (kind === 'device') return { actor: { kind: 'device', deviceId: row.id, merchantId: row.merchant_id } };
  if (!row.project_active) return { refused: 'project_inactive' };
  return { actor: { kind: 'project', projectId: row.project_id!, merchantId: row.merchant_id, sandbox: row.sandbox!, keyId: row.id } };
}

/**
 * The dashboard user a session cookie stands for (an Authorization header, when present, wins and
 * the cookie is not read). Refused with 401 when the session is unknown, revoked, idle for 12 h or
 * older than 7 days, or when the request did not prove it came from the dashboard (`csrf`); 403
 * when the merchant is inactive. The answer is cached like a key's (cleared on every session
 * revocation, role change or removal); `last_seen_at` is stamped at most once a minute.
 */
export async function authenticateSession(deps: Deps, session: SessionCredential): Promise<{ actor: UserActor } | { refused: AppError }> {
  if (!SECRET_TOKEN_PATTERN.test(session.token)) return { refused: new AppError('unauthorized', 'The dashboard session has ended; sign in again.') };
  const hash = hashCredential(session.token);
  const cache = authCacheOf(deps);
  const load = () => lookupSession(deps, hash);
  const outcome = cache ? await cache.resolve(hash, load) : await load();
  if ('refused' in outcome) {
    const message = outcome.refused === 'unauthorized' ? 'The dashboard session has ended; sign in again.' : undefined;
    return { refused: new AppError(outcome.refused, message) };
  }
  if (!session.csrf) return { refused: new AppError('unauthorized', CSRF_REFUSAL, { csrfHeader: 'x-graphql-yoga-csrf' }) };
  return { actor: outcome.actor as UserActor };
}

async function lookupSession(deps: Deps, hash: string): Promise<AuthOutcome> {
  const row = await sessionByHash(deps.pool, hash);
  if (!row || !row.live || !isUserRole(row.role)) return { refused: 'unauthorized' };
  if (!row.merchant_active) return { refused: 'merchant_inactive' };
  if (row.stale) await touchSession(deps.pool, row.id);
  return { actor: { kind: 'user', userId: row.user_id, merchantId: row.merchant_id, role: row.role, sessionId: row.id, mustSetUpTotp: row.must_set_up_totp } };
}
