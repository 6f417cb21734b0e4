import { deliveriesOf, redeliverWebhook, sendTestWebhook } from '../../domain/webhooks/manage.js';
import { builder } from '../builder.js';
import { pageWithinScope } from '../cursor-scope.js';
import { NodeRef } from './node.js';

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
const WebhookDeliveryStatus = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a webhook delivery stands.',
  values: {
    pending: { description: 'Not delivered yet; attempts continue.' },
    succeeded: { description: 'The endpoint answered 2xx.' },
    failed: { description: 'Every attempt failed; re-send with redeliverWebhook.' },
  } satisfies Record<(typeof DELIVERY_STATUSES)[number], { description: string }>,
});

builder.prismaObject('WebhookAttempt', {
  description: 'One HTTP attempt of a delivery.',
  fields: (t) => ({
    attemptNumber: t.exposeInt('attemptNumber', { description: '1 for the first attempt.' }),
    manual: t.exposeBoolean('manual', { description: 'True when sent by redeliverWebhook.' }),
    startedAt: t.expose('startedAt', { description: 'When it started.', type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs', { description: 'How long the endpoint took, in milliseconds.' }),
    responseStatus: t.exposeInt('responseStatus', { description: 'The HTTP status answered; null when none.', nullable: true }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: 'The first 500 bytes of the response body.' }),
    error: t.exposeString('error', { description: 'Why it failed (timeout, refused address, …).', nullable: true }),
  }),
});

builder.prismaObject('WebhookDelivery', {
  description: 'One event sent to the project’s endpoint; `id` is the deliveryId, the same on every attempt.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The deliveryId (X-Service-Delivery).' }),
    eventType: t.exposeString('eventType', { description: 'The event kind, e.g. payment.confirmed.' }),
    paymentId: t.exposeID('paymentId', { description: 'The payment the event is about.', nullable: true }),
    status: t.field({ description: 'Where the delivery stands.', type: WebhookDeliveryStatus, select: { status: true }, resolve: (d) => d.status as (typeof DELIVERY_STATUSES)[number] }),
    test: t.exposeBoolean('test', { description: 'True for a sendTestWebhook delivery.' }),
    attemptCount: t.exposeInt('attemptCount', { description: 'Attempts so far.' }),
    nextAttemptAt: t.expose('nextAttemptAt', { description: 'When the next retry is due.', type: 'DateTime', nullable: true }),
    lastAttemptAt: t.expose('lastAttemptAt', { description: 'When the last attempt started.', type: 'DateTime', nullable: true }),
    deliveredAt: t.expose('deliveredAt', { description: 'When the endpoint answered 2xx.', type: 'DateTime', nullable: true }),
    attempts: t.relation('attempts', { description: 'Every attempt, first first.', query: { orderBy: { attemptNumber: 'asc' } } }),
    createdAt: t.expose('createdAt', { description: 'When the event happened.', type: 'DateTime' }),
  }),
});

builder.queryField('webhookDeliveries', (t) =>
  t.prismaConnection({
    type: 'WebhookDelivery',
    cursor: 'id',
    authScopes: { project: true, merchant: true },
    description: 'Newest first. A project key its project’s deliveries; a merchant key all its projects’, or one’s with `projectId`.',
    args: {
      projectId: t.arg.id({ description: 'Merchant key: only this project’s deliveries.' }),
      paymentId: t.arg.id({ description: 'Only deliveries about this payment.' }),
      status: t.arg({ description: 'Only deliveries in this state.', type: WebhookDeliveryStatus }),
    },
    resolve: (query, _root, args, ctx) => {
      const where = deliveriesOf(ctx.actor, { paymentId: args.paymentId ? String(args.paymentId) : null, status: args.status, projectId: args.projectId as string | null | undefined });
      // Issue 13: a cursor the caller cannot see answers an empty page (no existence oracle).
      return pageWithinScope(query, (id) => ctx.deps.prisma.webhookDelivery.count({ where: { AND: [where, { id }] } }), () =>
        ctx.deps.prisma.webhookDelivery.findMany({ ...query, where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
      );
    },
  }),
);

builder.mutationFields((t) => ({
  redeliverWebhook: t.prismaField({
    description: 'Re-sends a delivery now, whatever its state; the attempt is recorded. A project key its project’s deliveries; the merchant key or an owner’s dashboard session any of the merchant’s (other roles: 403 forbidden). Manual sends (with sendTestWebhook) are limited to 30 a minute per project and wait for a free endpoint slot (WEBHOOK_ENDPOINT_CONCURRENCY) up to 10 s; either refusal is 429 rate_limited with Retry-After.',
    type: 'WebhookDelivery',
    authScopes: { project: true, merchant: true },
    args: { deliveryId: t.arg.id({ description: 'The delivery UUID.', required: true }) },
    resolve: async (query, _root, { deliveryId }, ctx) => {
      const d = await redeliverWebhook(ctx.deps, ctx.actor, String(deliveryId));
      return ctx.deps.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: d.id } });
    },
  }),
  sendTestWebhook: t.prismaField({
    description:
      'Sends a signed sample payment.confirmed to a project’s endpoint: a project key’s own, or with `projectId` the one a merchant key or an owner’s dashboard session names (other roles: 403 forbidden). Limited like redeliverWebhook.',
    type: 'WebhookDelivery',
    authScopes: { project: true, merchant: true },
    args: {
      projectId: t.arg.id({
        description: 'The project UUID: required with a merchant key or a dashboard session; a project key may leave it out (any other project’s id is not found).',
      }),
    },
    resolve: async (query, _root, { projectId }, ctx) => {
      const d = await sendTestWebhook(ctx.deps, ctx.actor, projectId == null ? null : String(projectId));
      return ctx.deps.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: d.id } });
    },
  }),
}));
