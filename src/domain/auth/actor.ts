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

/** A credential of the wrong kind is as good as none: 401, never a hint of what it is. */
export function requireActor<K extends ActorKind>(actor: Actor, ...kinds: K[]): ActorOf<K> {
  if (!(kinds as ActorKind[]).includes(actor.kind)) throw new AppError('unauthorized');
  return actor as ActorOf<K>;
}
