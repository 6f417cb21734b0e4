import { z } from 'zod';
import { AppError } from '../../errors.js';
import { recordAudit } from '../audit/audit.js';
import { changesOf } from '../audit/changes.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { findOwnedProject } from '../projects/projects.js';
import { parseInput } from '../validation.js';
import { eventsInput } from './endpoints.js';

/**
 * Merchant: the event types the project's endpoint receives, changed without a new secret (the
 * dashboard's event checkboxes: setWebhookEndpoint always issues one, which the shop would then have
 * to install). No endpoint yet → 404.
 */
export async function setWebhookEndpointEvents(deps: Deps, actor: Actor, projectId: string, events: readonly string[]) {
  const merchant = requireActor(actor, 'merchant');
  const project = await findOwnedProject(deps.prisma, merchant.merchantId, projectId);
  const chosen = parseInput(z.object({ events: eventsInput }), { events }).events;
  return deps.prisma.$transaction(async (tx) => {
    const before = await tx.webhookEndpoint.findUnique({ where: { projectId: project.id } });
    if (!before) throw AppError.notFound('Webhook endpoint');
    const endpoint = await tx.webhookEndpoint.update({ where: { id: before.id }, data: { events: chosen } });
    const changes = changesOf(before, endpoint, ['events']);
    if (changes) await recordAudit(tx, actor, { action: 'webhook_endpoint.updated', subjectType: 'webhook_endpoint', subjectId: endpoint.id, projectId: project.id, changes });
    return endpoint;
  });
}
