import { setWebhookEndpointEvents } from '../../domain/webhooks/endpoint-events.js';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/event-types.js';
import { builder } from '../builder.js';

builder.mutationField('setWebhookEndpointEvents', (t) =>
  t.prismaField({
    type: 'WebhookEndpoint',
    authScopes: { merchant: true },
    description: `Changes the event types the project’s endpoint receives, keeping its URL and secret (setWebhookEndpoint would issue a new secret). Any of ${WEBHOOK_EVENT_TYPES.join(', ')}; at least one. No endpoint yet: not_found. The merchant key or an owner; audited (webhook_endpoint.updated).`,
    args: {
      projectId: t.arg.id({ description: 'The project UUID.', required: true }),
      events: t.arg.stringList({ description: 'The event types to receive from now on.', required: true }),
    },
    resolve: async (query, _root, { projectId, events }, ctx) => {
      const endpoint = await setWebhookEndpointEvents(ctx.deps, ctx.actor, String(projectId), events);
      return ctx.deps.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: endpoint.id } });
    },
  }),
);
