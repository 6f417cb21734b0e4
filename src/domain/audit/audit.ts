import type { PrismaClient, Tx } from '../../db/prisma.js';
import type { AuditEvent, Prisma } from '../../generated/prisma/client.js';
import type { Actor } from '../auth/actor.js';
import { changesOf, type Changes } from './changes.js';

/**
 * The audit log: who changed what, one row per change, written in the transaction of the change
 * (so a change that rolls back leaves no event, and no change commits without one). The table is
 * append-only in the database (migration audit_log). Where to call it: docs/architecture.md,
 * "Audit log: where to call recordAudit".
 */

/** A decision the engine made by itself (matching, expiry, webhook health): no credential acted. */
export type SystemActor = { kind: 'system'; label: string };
export const systemActor = (label: string): SystemActor => ({ kind: 'system', label });

export type AuditActorKind = 'merchant_key' | 'project_key' | 'user' | 'operator' | 'system';
export const AUDIT_ACTOR_KINDS = ['merchant_key', 'project_key', 'user', 'operator', 'system'] as const satisfies readonly AuditActorKind[];

/**
 * The door a change came through: the REST or GraphQL API with a key, the dashboard (a user's
 * session), the operator CLI, a chat bot, or the engine by itself. One person may act through
 * several (a user decides from the dashboard and from a bot), so the log keeps it beside the actor.
 */
export const AUDIT_VIAS = ['api', 'dashboard', 'cli', 'telegram', 'bale', 'system'] as const;
export type AuditVia = (typeof AUDIT_VIAS)[number];

/** The door an actor kind implies when the caller does not name one (migration audit_via backfills the same way). */
const VIA_OF_KIND: Record<AuditActorKind, AuditVia> = { user: 'dashboard', merchant_key: 'api', project_key: 'api', operator: 'cli', system: 'system' };

/** What an event says about who acted; `label` is what people read (a key prefix, "operator CLI"). */
export type AuditActor = { kind: AuditActorKind; id: string | null; label: string; merchantId: string | null };

export const AUDIT_SUBJECTS = [
  'merchant',
  'merchant_key',
  'project',
  'api_key',
  'device',
  'card',
  'payment_link',
  'webhook_endpoint',
  'webhook_delivery',
  'payment',
  'bank_message',
  'balance_gap',
  'refund',
  'user',
] as const;
export type AuditSubject = (typeof AUDIT_SUBJECTS)[number];

export type AuditInput = {
  /** `<subject>.<past-tense verb>`: `api_key.created`, `card.updated`, `merchant.credit_added`. */
  action: `${AuditSubject}.${string}`;
  subjectType: AuditSubject;
  subjectId: string;
  /** The project the subject belongs to; null for merchant-wide subjects (devices, credit, merchant keys). */
  projectId: string | null;
  /** Needed only when neither the actor nor `projectId` names the merchant. */
  merchantId?: string;
  note?: string | null;
  changes?: Changes | null;
};

type AuditDb = Pick<Tx, 'auditEvent' | 'merchantKey' | 'apiKey' | 'device' | 'project' | 'user'>;

const OPERATOR_LABEL = 'operator CLI';

/** The audit view of a caller. Exhaustive: a new kind of Actor (a dashboard user) must say how it is recorded. */
export async function auditActor(db: AuditDb, actor: Actor | SystemActor): Promise<AuditActor> {
  switch (actor.kind) {
    case 'merchant': {
      const key = await db.merchantKey.findUnique({ where: { id: actor.keyId }, select: { keyPrefix: true } });
      return { kind: 'merchant_key', id: actor.keyId, label: `${key?.keyPrefix ?? 'mk_'}…`, merchantId: actor.merchantId };
    }
    case 'project': {
      const key = await db.apiKey.findUnique({ where: { id: actor.keyId }, select: { keyPrefix: true } });
      return { kind: 'project_key', id: actor.keyId, label: `${key?.keyPrefix ?? 'sk_'}…`, merchantId: actor.merchantId };
    }
    case 'user': {
      const user = await db.user.findUnique({ where: { id: actor.userId }, select: { email: true } });
      return { kind: 'user', id: actor.userId, label: user?.email ?? actor.userId, merchantId: actor.merchantId };
    }
    case 'operator':
      return { kind: 'operator', id: null, label: OPERATOR_LABEL, merchantId: null };
    case 'system':
      return { kind: 'system', id: null, label: actor.label, merchantId: null };
    // A device or a payer never changes what the log covers by itself; what follows from their
    // requests is the engine's doing, recorded as such with the caller named.
    case 'device': {
      const device = await db.device.findUnique({ where: { id: actor.deviceId }, select: { name: true } });
      return { kind: 'system', id: actor.deviceId, label: `engine, from device ${device?.name ?? actor.deviceId}`, merchantId: actor.merchantId };
    }
    case 'public':
      return { kind: 'system', id: null, label: 'engine, from a payer', merchantId: null };
    default: {
      const unknown: never = actor;
      throw new Error(`no audit view for actor ${JSON.stringify(unknown)}`);
    }
  }
}

/** Appends one event, in the caller's transaction; `via` defaults to the door the actor's kind implies. */
export async function recordAudit(tx: AuditDb, actor: Actor | SystemActor, input: AuditInput, via?: AuditVia): Promise<AuditEvent> {
  const who = await auditActor(tx, actor);
  const merchantId = input.merchantId ?? who.merchantId ?? (await merchantOfProject(tx, input.projectId));
  if (who.merchantId && input.merchantId && who.merchantId !== input.merchantId) {
    throw new Error(`audit ${input.action}: the actor's merchant ${who.merchantId} is not ${input.merchantId}`);
  }
  return tx.auditEvent.create({
    data: {
      actorKind: who.kind,
      actorId: who.id,
      actorLabel: who.label,
      via: via ?? VIA_OF_KIND[who.kind],
      merchantId,
      projectId: input.projectId,
      action: input.action,
      subjectType: input.subjectType,
      subjectId: input.subjectId,
      note: input.note ?? null,
      changes: (input.changes ?? undefined) as Prisma.InputJsonObject | undefined,
    },
  });
}

async function merchantOfProject(db: AuditDb, projectId: string | null): Promise<string> {
  const project = projectId ? await db.project.findUnique({ where: { id: projectId }, select: { merchantId: true } }) : null;
  if (!project) throw new Error('an audit event needs a merchant: from the actor, merchantId or projectId');
  return project.merchantId;
}

/**
 * An update's event, with the fields it touched that changed (`changesOf`); nothing when none did,
 * so a call that leaves the row as it was records nothing.
 */
export async function recordUpdate(
  tx: AuditDb,
  actor: Actor | SystemActor,
  input: Omit<AuditInput, 'changes'> & { before: object; after: object; fields: readonly string[] },
): Promise<void> {
  const { before, after, fields, ...event } = input;
  const changes = changesOf(before, after, fields);
  if (changes) await recordAudit(tx, actor, { ...event, changes });
}

/**
 * A single write and its event in one transaction, for verbs that write one row: `event` sees the
 * written row and returns the event, or null when the write changed nothing worth recording.
 */
export function writeAudited<T>(
  prisma: PrismaClient,
  actor: Actor | SystemActor,
  write: (tx: Tx) => Promise<T>,
  event: (row: T) => AuditInput | null,
): Promise<T> {
  return prisma.$transaction(async (tx) => {
    const row = await write(tx);
    const input = event(row);
    if (input) await recordAudit(tx, actor, input);
    return row;
  });
}
