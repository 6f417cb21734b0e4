import { AUDIT_ACTOR_KINDS, type AuditActorKind, type AuditVia } from '../../domain/audit/audit.js';
import { sideProjectIds, visibleAuditEvents } from '../../domain/audit/visibility.js';
import { readPrisma } from '../../domain/reports/read-pool.js';
import { builder } from '../builder.js';
import { pageWithinScope } from '../cursor-scope.js';

const AuditActorKindEnum = builder.enumType('AuditActorKind', {
  description: 'What kind of caller made a change.',
  values: {
    merchant_key: { description: 'A merchant key (mk_…).' },
    project_key: { description: 'A project API key (sk_live_… or sk_test_…).' },
    user: { description: 'A dashboard user.' },
    operator: { description: 'The gateway operator (operator CLI).' },
    system: { description: 'The gateway itself (matching, expiry, webhook health).' },
  } satisfies Record<(typeof AUDIT_ACTOR_KINDS)[number], { description: string }>,
});

const AuditViaEnum = builder.enumType('AuditVia', {
  description: 'The door a change came through.',
  values: {
    api: { description: 'The REST or GraphQL API, with a merchant key or a project API key.' },
    dashboard: { description: 'The dashboard, by a signed-in user.' },
    cli: { description: 'The operator CLI.' },
    telegram: { description: 'The Telegram bot, by a linked user.' },
    bale: { description: 'The Bale bot, by a linked user.' },
    system: { description: 'The gateway itself (matching, expiry, webhook health, the demo’s seeding).' },
  } satisfies Record<AuditVia, { description: string }>,
});

type ActorShape = { actorKind: string; actorId: string | null; actorLabel: string };

const AuditActorRef = builder.objectRef<ActorShape>('AuditActor').implement({
  description: 'Who made a change.',
  fields: (t) => ({
    kind: t.field({ description: 'The kind of caller.', type: AuditActorKindEnum, resolve: (a) => a.actorKind as AuditActorKind }),
    id: t.string({ description: 'The key or user id; null for the operator and the gateway.', nullable: true, resolve: (a) => a.actorId }),
    label: t.string({ description: 'What to show: a key prefix, "operator CLI", the part of the gateway that decided.', resolve: (a) => a.actorLabel }),
  }),
});

builder.prismaObject('AuditEvent', {
  description: 'One change or decision in the audit log, written in the same transaction as the change. The log is append-only.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The event UUID.' }),
    at: t.expose('at', { description: 'When the change was committed.', type: 'DateTime' }),
    actor: t.field({
      description: 'Who made the change.',
      type: AuditActorRef,
      select: { actorKind: true, actorId: true, actorLabel: true },
      resolve: (e) => e,
    }),
    via: t.field({ description: 'The door the change came through.', type: AuditViaEnum, select: { via: true }, resolve: (e) => e.via as AuditVia }),
    action: t.exposeString('action', { description: '`<subject>.<verb>`, e.g. api_key.created, card.updated, merchant.credit_added.' }),
    subjectType: t.exposeString('subjectType', { description: 'What changed: project, api_key, device, card, payment_link, webhook_endpoint, merchant, payment, bank_message, …' }),
    subjectId: t.exposeID('subjectId', { description: 'The UUID of what changed.' }),
    projectId: t.exposeID('projectId', { description: 'The project it belongs to; null for merchant-wide changes (devices, credit, merchant keys).', nullable: true }),
    note: t.exposeString('note', { description: 'The note given with the change.', nullable: true }),
    changes: t.field({
      description: '`{field: {from, to}}` for the fields that changed (set fields for a creation). Never secrets; card and account numbers masked to the last 4.',
      type: 'JSONObject',
      nullable: true,
      select: { changes: true },
      resolve: (e) => e.changes ?? null,
    }),
  }),
});

builder.queryField('auditEvents', (t) =>
  t.prismaConnection({
    type: 'AuditEvent',
    cursor: 'id',
    authScopes: { merchant: true, project: true },
    description:
      'The audit log, newest first. A project key sees its project’s events; a merchant key all of the merchant’s (also merchant-wide: devices, credit, merchant keys), or one project’s with projectId. A project or subject the caller cannot see gives an empty list.',
    args: {
      projectId: t.arg.id({ description: 'Only events of this project.' }),
      subjectId: t.arg.id({ description: 'Only events about this object (a project, key, device, card, link, payment, …).' }),
      sandbox: t.arg.boolean({
        description: 'Only one side: true the sandbox projects’ events, false the live projects’; the merchant-wide events (no project: devices, credit, merchant keys, users) are on both.',
      }),
    },
    resolve: async (query, _root, args, ctx) => {
      // A dashboard list: the read replica when there is one (may lag; src/domain/reports/read-pool.ts).
      const db = readPrisma(ctx.deps);
      const where = visibleAuditEvents(ctx.actor, {
        projectId: args.projectId == null ? null : String(args.projectId),
        subjectId: args.subjectId == null ? null : String(args.subjectId),
        sideProjectIds: await sideProjectIds(db, ctx.actor, args.sandbox ?? null),
      });
      // Issue 13: a cursor the caller cannot see answers an empty page (no existence oracle).
      return pageWithinScope(query, (id) => db.auditEvent.count({ where: { AND: [where, { id }] } }), () =>
        db.auditEvent.findMany({ ...query, where, orderBy: [{ at: 'desc' }, { id: 'desc' }] }),
      );
    },
  }),
);
