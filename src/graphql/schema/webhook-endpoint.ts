import { rotateWebhookSecret, setWebhookEndpoint, webhookEndpointOf } from '../../domain/webhooks/endpoints.js';
import { DEFAULT_ENDPOINT_EVENTS, OPT_IN_EVENTS, WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/event-types.js';
import { recentSuccess } from '../../domain/webhooks/health.js';
import { builder } from '../builder.js';

builder.prismaObject('WebhookEndpoint', {
  description: 'Where a project’s webhooks are sent.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The endpoint UUID.' }),
    projectId: t.exposeID('projectId', { description: 'The project UUID.' }),
    url: t.exposeString('url', { description: 'The URL deliveries are POSTed to.' }),
    events: t.exposeStringList('events', { description: `The event types it receives: ${DEFAULT_ENDPOINT_EVENTS.join(', ')} (the default), and the opt-in ${OPT_IN_EVENTS.join(', ')}.` }),
    active: t.exposeBoolean('active', { description: 'Whether deliveries are sent; false once disabled for failing, until setWebhookEndpoint re-enables it.' }),
    failingSince: t.expose('failingSince', {
      type: 'DateTime',
      nullable: true,
      description: 'The first failed attempt since the last success; after 5 days of nothing but failures the endpoint is disabled.',
    }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true, description: 'When it was disabled for failing; null while enabled.' }),
    disabledReason: t.exposeString('disabledReason', { nullable: true, description: 'Why it was disabled.' }),
    recentAttempts: t.int({
      description: 'Attempts (automatic and manual) in the last 24 hours.',
      select: { id: true },
      resolve: async (endpoint, _args, ctx) => (await recentSuccess(ctx.deps, endpoint.id)).attempts,
    }),
    recentSuccessRate: t.float({
      nullable: true,
      description: 'The share (0..1) of the last 24 hours’ attempts answered 2xx within 10 s; null when there were none.',
      select: { id: true },
      resolve: async (endpoint, _args, ctx) => (await recentSuccess(ctx.deps, endpoint.id)).rate,
    }),
    previousSecretExpiresAt: t.expose('previousSecretExpiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Until then deliveries are signed with the previous secret too.',
    }),
    createdAt: t.expose('createdAt', { description: 'When it was set.', type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { description: 'When it last changed.', type: 'DateTime' }),
  }),
});

const WebhookSecretPayload = builder.objectRef<{ secret: string; endpointId: string }>('WebhookSecretPayload').implement({
  description: 'A newly issued webhook signing secret.',
  fields: (t) => ({
    secret: t.exposeString('secret', { description: 'The signing secret (whsec_…); shown only now.' }),
    endpoint: t.prismaField({
      description: 'The endpoint.',
      type: 'WebhookEndpoint',
      resolve: (query, parent, _args, ctx) =>
        ctx.deps.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: parent.endpointId } }),
    }),
  }),
});

builder.queryField('webhookEndpoint', (t) =>
  t.prismaField({
    type: 'WebhookEndpoint',
    nullable: true,
    authScopes: { merchant: true, project: true },
    description: 'A project’s webhook endpoint with its health; null until set. A merchant names the project, a project key reads its own.',
    args: { projectId: t.arg.id({ description: 'The project UUID; required with a merchant key.' }) },
    resolve: async (query, _root, { projectId }, ctx) => {
      const endpoint = await webhookEndpointOf(ctx.deps, ctx.actor, projectId ? String(projectId) : null);
      return endpoint ? ctx.deps.prisma.webhookEndpoint.findUnique({ ...query, where: { id: endpoint.id } }) : null;
    },
  }),
);

builder.mutationFields((t) => ({
  setWebhookEndpoint: t.field({
    description: 'Sets the project’s webhook URL and issues a fresh signing secret (shown once); re-enables an endpoint disabled for failing. Merchant key.',
    type: WebhookSecretPayload,
    authScopes: { merchant: true },
    args: {
      projectId: t.arg.id({ description: 'The project UUID.', required: true }),
      url: t.arg.string({ description: 'https URL (http for sandbox projects).', required: true }),
      events: t.arg.stringList({
        description:
          `The event types to receive, any of ${WEBHOOK_EVENT_TYPES.join(', ')}. Left out: a new endpoint gets the default set (the four final payment events and payment.refunded), an existing one keeps its list.`,
      }),
    },
    resolve: async (_root, { projectId, url, events }, ctx) => {
      const { endpoint, secret } = await setWebhookEndpoint(ctx.deps, ctx.actor, String(projectId), url, events);
      return { secret, endpointId: endpoint.id };
    },
  }),
  rotateWebhookSecret: t.field({
    description: 'Issues a new secret; for 24 h deliveries carry signatures with both. Merchant key.',
    type: WebhookSecretPayload,
    authScopes: { merchant: true },
    args: { projectId: t.arg.id({ description: 'The project UUID.', required: true }) },
    resolve: async (_root, { projectId }, ctx) => {
      const { endpoint, secret } = await rotateWebhookSecret(ctx.deps, ctx.actor, String(projectId));
      return { secret, endpointId: endpoint.id };
    },
  }),
}));
