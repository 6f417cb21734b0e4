import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { uuidSchema } from '../validation.js';
import { attemptDelivery, createTestDelivery } from './deliveries.js';

export function deliveriesOf(actor: Actor, filter: { paymentId?: string | null; status?: string | null }): Prisma.WebhookDeliveryWhereInput {
  const { projectId } = requireActor(actor, 'project');
  // A payment id that is not a UUID names no payment: an empty list, as for an unknown id.
  if (filter.paymentId && !uuidSchema.safeParse(filter.paymentId).success) return { id: { in: [] } };
  return { projectId, ...(filter.paymentId ? { paymentId: filter.paymentId } : {}), ...(filter.status ? { status: filter.status } : {}) };
}

/** Re-sends a delivery now, by hand, whatever its state; the attempt is recorded like the others. */
export async function redeliverWebhook(deps: Deps, actor: Actor, deliveryId: string) {
  const { projectId } = requireActor(actor, 'project');
  const found = uuidSchema.safeParse(deliveryId).success
    ? await deps.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, projectId } })
    : null;
  if (!found) throw AppError.notFound('Webhook delivery');
  await attemptDelivery(deps, found.id, { manual: true });
  return deps.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: found.id } });
}

/** Sends a signed sample `payment.confirmed` to the project's endpoint and returns the recorded delivery. */
export async function sendTestWebhook(deps: Deps, actor: Actor) {
  const { projectId } = requireActor(actor, 'project');
  const deliveryId = await createTestDelivery(deps, projectId);
  if (!deliveryId) throw new AppError('invalid_state', 'The project has no webhook endpoint; set one with setWebhookEndpoint.', { status: 'no_endpoint' });
  await attemptDelivery(deps, deliveryId, { manual: true });
  return deps.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
}
