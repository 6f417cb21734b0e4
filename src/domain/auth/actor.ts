import { AppError } from '../../errors.js';
import { requireRole, type UserRole } from './roles.js';

/**
 * A dashboard user, by the session cookie. `sessionId` is null only when the user acts through a
 * set-password link (no session yet).
 */
export type UserActor = { kind: 'user'; userId: string; merchantId: string; role: UserRole; sessionId: string | null; mustSetUpTotp: boolean };

/** Who is calling. Domain functions take one and never see a request, a socket or GraphQL info. */
export type Actor =
  | { kind: 'merchant'; merchantId: string; keyId: string }
  | { kind: 'project'; projectId: string; merchantId: string; sandbox: boolean; keyId: string }
  | { kind: 'device'; deviceId: string; merchantId: string }
  | { kind: 'public'; ip?: string }
  | { kind: 'operator' }
  | UserActor;

export type ActorKind = Actor['kind'];
/**
 * The callers `requireActor(actor, ...kinds)` lets through. `merchant` is the management
 * credential: the merchant key, or a dashboard user whose role may manage (an owner); `public`
 * lets anyone through, a dashboard user too.
 */
export type ActorOf<K extends ActorKind> = Extract<Actor, { kind: K }> | ('merchant' extends K ? UserActor : 'public' extends K ? UserActor : never);

export const publicActor: Actor = { kind: 'public' };
export const operatorActor: Actor = { kind: 'operator' };

const CREDENTIAL_NAMES: Partial<Record<ActorKind, string>> = {
  merchant: 'a merchant key (mk_…)',
  project: 'a project API key (sk_live_… or sk_test_…)',
  device: 'a device token (dt_…)',
  user: 'a dashboard session (the session cookie, with the header x-graphql-yoga-csrf on GraphQL and on REST changes)',
};

/**
 * 401 naming the credential the route (or GraphQL field) takes, so a caller holding the wrong kind
 * knows which one to use. It says nothing about the credential that was sent.
 */
export function unauthorizedFor(kinds: readonly string[], where: 'route' | 'field' = 'route'): AppError {
  const names = kinds.flatMap((k) => CREDENTIAL_NAMES[k as ActorKind] ?? []);
  if (names.length === 0) return new AppError('unauthorized');
  return new AppError('unauthorized', `This ${where} takes ${names.join(' or ')}: Authorization: Bearer <credential>.`);
}

/**
 * A credential of the wrong kind is as good as none: 401. A dashboard user passes where `user` or
 * `public` is named (reads, public routes, and decisions, which check the role themselves:
 * `requireDecider`), and where only `merchant` is named (management) when the role may manage;
 * any other role is 403 `forbidden`. The roles' powers are one table: `src/domain/auth/roles.ts`.
 */
export function requireActor<K extends ActorKind>(actor: Actor, ...kinds: K[]): ActorOf<K> {
  const named = kinds as ActorKind[];
  if (actor.kind === 'user' && !named.includes('user') && !named.includes('public') && named.includes('merchant')) {
    requireRole(actor, 'manage');
    return actor as ActorOf<K>;
  }
  if (!named.includes(actor.kind) && !(actor.kind === 'user' && named.includes('public'))) throw unauthorizedFor(kinds);
  return actor as ActorOf<K>;
}
