import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { recordAudit } from '../audit/audit.js';
import { callerScope } from '../auth/scope.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { uuidSchema } from '../validation.js';
import { countManualSend, resendByHand, sendTestByHand } from './manual-send.js';
import { DELIVERY_INCLUDE } from './post.js';

export function deliveriesOf(actor: Actor, filter: { paymentId?: string | null; status?: string | null; projectId?: string | null }): Prisma.WebhookDeliveryWhereInput {
  // A project key its project's deliveries; a merchant credential all its projects', or one's.
  const scope = callerScope(actor, filter.projectId);
  // A payment id that is not a UUID names no payment: an empty list, as for an unknown id.
  if (scope.none || (filter.paymentId && !uuidSchema.safeParse(filter.paymentId).success)) return { id: { in: [] } };
  return {
    endpoint: { project: { merchantId: scope.merchantId } },
    ...(scope.projectId ? { projectId: scope.projectId } : {}),
    ...(filter.paymentId ? { paymentId: filter.paymentId } : {}),
    ...(filter.status ? { status: filter.status } : {}),
  };
}

/** Re-sends a delivery now, by hand, whatever its state; the attempt is recorded like the others. */
export async function redeliverWebhook(deps: Deps, actor: Actor, deliveryId: string) {
  const { projectId } = requireActor(actor, 'project');
  await countManualSend(deps, projectId);
  const found = uuidSchema.safeParse(deliveryId).success
    ? await deps.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, projectId }, include: DELIVERY_INCLUDE })
    : null;
  if (!found) throw AppError.notFound('Webhook delivery');
  await resendByHand(deps, found);
  // A POST cannot roll back: the event follows the recorded attempt, and a refused send leaves none.
  await recordAudit(deps.prisma, actor, { action: 'webhook_delivery.resent', subjectType: 'webhook_delivery', subjectId: found.id, projectId: found.projectId });
  return deps.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: found.id } });
}

/** Sends a signed sample `payment.confirmed` to the project's endpoint and returns the recorded delivery. */
export async function sendTestWebhook(deps: Deps, actor: Actor) {
  const { projectId } = requireActor(actor, 'project');
  await countManualSend(deps, projectId);
  const endpoint = await deps.prisma.webhookEndpoint.findUnique({ where: { projectId } });
  if (!endpoint) throw new AppError('invalid_state', 'The project has no webhook endpoint; set one with setWebhookEndpoint.', { status: 'no_endpoint' });
  const deliveryId = await sendTestByHand(deps, endpoint);
  await recordAudit(deps.prisma, actor, { action: 'webhook_delivery.test_sent', subjectType: 'webhook_delivery', subjectId: deliveryId, projectId: endpoint.projectId });
  return deps.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
}
