import { credentialByHash } from './credential-store.js';
import { AppError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { publicActor, type Actor } from './actor.js';
import { authCacheOf, type AuthOutcome } from './auth-cache.js';
import { classifyCredential, hashCredential } from './credentials.js';

const BEARER = /^Bearer ([^\s]+)$/;

/**
 * Resolves an Authorization header to an Actor. No header → the public actor; anything present
 * but unusable (malformed, unknown, revoked) → 401; a known key of an inactive merchant or
 * project → 403. One indexed lookup by hash, or none while the process's cache holds the answer
 * (cleared on every revocation or deactivation, and never older than half a second).
 */
export async function authenticate(deps: Deps, header: string | undefined): Promise<Actor> {
  if (header === undefined || header === '') return publicActor;
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
