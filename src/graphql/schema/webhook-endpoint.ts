import { rotateWebhookSecret, setWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { builder } from '../builder.js';

builder.prismaObject('WebhookEndpoint', {
  fields: (t) => ({
    id: t.exposeID('id'),
    projectId: t.exposeID('projectId'),
    url: t.exposeString('url'),
    active: t.exposeBoolean('active'),
    previousSecretExpiresAt: t.expose('previousSecretExpiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Until then deliveries are signed with the previous secret too.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const WebhookSecretPayload = builder.objectRef<{ secret: string; endpointId: string }>('WebhookSecretPayload').implement({
  fields: (t) => ({
    secret: t.exposeString('secret', { description: 'The signing secret (whsec_…); shown only now.' }),
    endpoint: t.prismaField({
      type: 'WebhookEndpoint',
      resolve: (query, parent, _args, ctx) =>
        ctx.deps.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: parent.endpointId } }),
    }),
  }),
});

builder.mutationFields((t) => ({
  setWebhookEndpoint: t.field({
    type: WebhookSecretPayload,
    authScopes: { merchant: true },
    args: { projectId: t.arg.id({ required: true }), url: t.arg.string({ required: true }) },
    resolve: async (_root, { projectId, url }, ctx) => {
      const { endpoint, secret } = await setWebhookEndpoint(ctx.deps, ctx.actor, String(projectId), url);
      return { secret, endpointId: endpoint.id };
    },
  }),
  rotateWebhookSecret: t.field({
    type: WebhookSecretPayload,
    authScopes: { merchant: true },
    args: { projectId: t.arg.id({ required: true }) },
    resolve: async (_root, { projectId }, ctx) => {
      const { endpoint, secret } = await rotateWebhookSecret(ctx.deps, ctx.actor, String(projectId));
      return { secret, endpointId: endpoint.id };
    },
  }),
}));
