import { deliveriesOf, redeliverWebhook, sendTestWebhook } from '../../domain/webhooks/manage.js';
import { builder } from '../builder.js';

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
const WebhookDeliveryStatus = builder.enumType('WebhookDeliveryStatus', { values: DELIVERY_STATUSES });

builder.prismaObject('WebhookAttempt', {
  fields: (t) => ({
    attemptNumber: t.exposeInt('attemptNumber'),
    manual: t.exposeBoolean('manual'),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs'),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: 'The first 500 bytes of the response body.' }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

builder.prismaObject('WebhookDelivery', {
  description: 'One event sent to the project’s endpoint; `id` is the deliveryId, the same on every attempt.',
  fields: (t) => ({
    id: t.exposeID('id'),
    eventType: t.exposeString('eventType'),
    paymentId: t.exposeID('paymentId', { nullable: true }),
    status: t.field({ type: WebhookDeliveryStatus, select: { status: true }, resolve: (d) => d.status as (typeof DELIVERY_STATUSES)[number] }),
    test: t.exposeBoolean('test'),
    attemptCount: t.exposeInt('attemptCount'),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    attempts: t.relation('attempts', { query: { orderBy: { attemptNumber: 'asc' } } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('webhookDeliveries', (t) =>
  t.prismaConnection({
    type: 'WebhookDelivery',
    cursor: 'id',
    authScopes: { project: true },
    description: 'Newest first.',
    args: { paymentId: t.arg.id(), status: t.arg({ type: WebhookDeliveryStatus }) },
    resolve: (query, _root, args, ctx) =>
      ctx.deps.prisma.webhookDelivery.findMany({
        ...query,
        where: deliveriesOf(ctx.actor, { paymentId: args.paymentId ? String(args.paymentId) : null, status: args.status }),
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      }),
  }),
);

builder.mutationFields((t) => ({
  redeliverWebhook: t.prismaField({
    type: 'WebhookDelivery',
    authScopes: { project: true },
    args: { deliveryId: t.arg.id({ required: true }) },
    resolve: async (query, _root, { deliveryId }, ctx) => {
      const d = await redeliverWebhook(ctx.deps, ctx.actor, String(deliveryId));
      return ctx.deps.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: d.id } });
    },
  }),
  sendTestWebhook: t.prismaField({
    type: 'WebhookDelivery',
    authScopes: { project: true },
    resolve: async (query, _root, _args, ctx) => {
      const d = await sendTestWebhook(ctx.deps, ctx.actor);
      return ctx.deps.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: d.id } });
    },
  }),
}));
