import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { recordAudit } from '../audit/audit.js';
import { callerScope } from '../auth/scope.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { findOwnedProject } from '../projects/projects.js';
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

/**
 * The project a manual send is for (docs/dashboard.md "Webhooks": the test
 * send): a project key its own (a `projectId` it gives must be its own, else 404 like any project it
 * cannot see); a merchant credential names one of its projects. Who may send is decided as for the
 * other webhook management (setWebhookEndpoint, rotateWebhookSecret): the merchant key and an owner;
 * any other dashboard role is 403 `forbidden` (src/domain/auth/roles.ts), before anything is read.
 */
async function manualSendProject(deps: Deps, actor: Actor, projectId: string | null | undefined): Promise<string> {
  if (actor.kind === 'project') {
    if (projectId != null && projectId !== actor.projectId) throw AppError.notFound('Project');
    return actor.projectId;
  }
  const merchant = requireActor(actor, 'merchant');
  if (projectId == null || projectId === '') {
    throw AppError.invalid([{ field: 'projectId', message: 'is required with a merchant key or a dashboard session: the project whose endpoint gets the test' }]);
  }
  return (await findOwnedProject(deps.prisma, merchant.merchantId, projectId)).id;
}

/**
 * Re-sends a delivery now, by hand, whatever its state; the attempt is recorded like the others. A
 * project key re-sends its project's deliveries; the merchant key and an owner any of the
 * merchant's (other roles: 403 `forbidden`, as for the rest of webhook management).
 */
export async function redeliverWebhook(deps: Deps, actor: Actor, deliveryId: string) {
  const caller = actor.kind === 'project' ? actor : requireActor(actor, 'merchant');
  const where = caller.kind === 'project' ? { projectId: caller.projectId } : { endpoint: { project: { merchantId: caller.merchantId } } };
  // A project key is counted before the look-up, as it always was; a merchant credential once the
  // delivery names the project it counts against.
  if (caller.kind === 'project') await countManualSend(deps, caller.projectId);
  const found = uuidSchema.safeParse(deliveryId).success
    ? await deps.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, ...where }, include: DELIVERY_INCLUDE })
    : null;
  if (!found) throw AppError.notFound('Webhook delivery');
  if (caller.kind !== 'project') await countManualSend(deps, found.projectId);
  await resendByHand(deps, found);
  // A POST cannot roll back: the event follows the recorded attempt, and a refused send leaves none.
  await recordAudit(deps.prisma, actor, { action: 'webhook_delivery.resent', subjectType: 'webhook_delivery', subjectId: found.id, projectId: found.projectId });
  return deps.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: found.id } });
}

/**
 * Sends a signed sample `payment.confirmed` to a project's endpoint and returns the recorded
 * delivery: a project key's own project, or the one a merchant credential names (`projectId`).
 */
export async function sendTestWebhook(deps: Deps, actor: Actor, projectId?: string | null) {
  const project = await manualSendProject(deps, actor, projectId);
  await countManualSend(deps, project);
  const endpoint = await deps.prisma.webhookEndpoint.findUnique({ where: { projectId: project } });
  if (!endpoint) throw new AppError('invalid_state', 'The project has no webhook endpoint; set one with setWebhookEndpoint.', { status: 'no_endpoint' });
  const deliveryId = await sendTestByHand(deps, endpoint);
  await recordAudit(deps.prisma, actor, { action: 'webhook_delivery.test_sent', subjectType: 'webhook_delivery', subjectId: deliveryId, projectId: endpoint.projectId });
  return deps.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
}
