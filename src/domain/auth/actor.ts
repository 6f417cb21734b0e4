import { AppError } from '../../errors.js';

/** Who is calling. Domain functions take one and never see a request, a socket or GraphQL info. */
export type Actor =
  | { kind: 'merchant'; merchantId: string; keyId: string }
  | { kind: 'project'; projectId: string; merchantId: string; sandbox: boolean; keyId: string }
  | { kind: 'device'; deviceId: string; merchantId: string }
  | { kind: 'public'; ip?: string }
  | { kind: 'operator' };

export type ActorKind = Actor['kind'];
export type ActorOf<K extends ActorKind> = Extract<Actor, { kind: K }>;

export const publicActor: Actor = { kind: 'public' };
export const operatorActor: Actor = { kind: 'operator' };

const CREDENTIAL_NAMES: Partial<Record<ActorKind, string>> = {
  merchant: 'a merchant key (mk_…)',
  project: 'a project API key (sk_live_… or sk_test_…)',
  device: 'a device token (dt_…)',
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

/** A credential of the wrong kind is as good as none: 401. */
export function requireActor<K extends ActorKind>(actor: Actor, ...kinds: K[]): ActorOf<K> {
  if (!(kinds as ActorKind[]).includes(actor.kind)) throw unauthorizedFor(kinds);
  return actor as ActorOf<K>;
}
