import { z } from 'zod';
import { AppError } from '../../errors.js';
import { recordAudit } from '../audit/audit.js';
import { changesOf } from '../audit/changes.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { newWebhookSecret } from '../auth/credentials.js';
import type { Deps } from '../deps.js';
import { findOwnedProject } from '../projects/projects.js';
import { parseInput } from '../validation.js';
import { DEFAULT_ENDPOINT_EVENTS, WEBHOOK_EVENT_TYPES } from './event-types.js';

const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

const urlInput = z.string().trim().max(2048, 'must be at most 2048 characters');

function checkEndpointUrl(deps: Deps, sandbox: boolean, raw: string): string {
  const url = parseInput(urlInput, raw);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw AppError.invalid([{ field: 'url', message: 'must be an absolute URL' }]);
  }
  const httpAllowed = sandbox || deps.config.webhookAllowPrivate;
  if (parsed.protocol !== 'https:' && !(httpAllowed && parsed.protocol === 'http:')) {
    throw AppError.invalid([{ field: 'url', message: sandbox ? 'must use http or https' : 'must use https' }]);
  }
  if (parsed.username || parsed.password) throw AppError.invalid([{ field: 'url', message: 'must not carry credentials' }]);
  return parsed.toString();
}

export const eventsInput = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
  .min(1, 'must name at least one event')
  .transform((events) => [...new Set(events)]);

/**
 * Merchant: the project's one webhook endpoint. Setting it issues a fresh secret (shown once,
 * stored encrypted); private and loopback targets are refused when deliveries connect. `events`
 * are the types it receives; left out, a new endpoint gets the payment events and an existing one
 * keeps its choice (re-setting the URL to re-enable it does not drop a device opt-in).
 */
export async function setWebhookEndpoint(deps: Deps, actor: Actor, projectId: string, url: string, events?: readonly string[] | null) {
  const merchant = requireActor(actor, 'merchant');
  const project = await findOwnedProject(deps.prisma, merchant.merchantId, projectId);
  const checkedUrl = checkEndpointUrl(deps, project.sandbox, url);
  const chosen = events == null ? undefined : parseInput(z.object({ events: eventsInput }), { events }).events;
  const secret = newWebhookSecret();
  const sealed = deps.secrets.seal(secret);
  return deps.prisma.$transaction(async (tx) => {
    const before = await tx.webhookEndpoint.findUnique({ where: { projectId: project.id } });
    const endpoint = await tx.webhookEndpoint.upsert({
      where: { projectId: project.id },
      create: { projectId: project.id, url: checkedUrl, secretCiphertext: sealed, events: chosen ?? [...DEFAULT_ENDPOINT_EVENTS] },
      // Setting the endpoint again is how a merchant re-enables one disabled for failing.
      update: {
        url: checkedUrl,
        secretCiphertext: sealed,
        previousSecretCiphertext: null,
        previousSecretExpiresAt: null,
        active: true,
        failingSince: null,
        disabledAt: null,
        disabledReason: null,
        ...(chosen ? { events: chosen } : {}),
      },
    });
    // Every set issues a new secret, so it is recorded even when the URL and events stay.
    await recordAudit(tx, actor, {
      action: 'webhook_endpoint.set',
      subjectType: 'webhook_endpoint',
      subjectId: endpoint.id,
      projectId: project.id,
      changes: changesOf(before ?? {}, endpoint, ['url', 'events', 'active']),
    });
    return { endpoint, secret };
  });
}

/**
 * The project's endpoint, or null: a merchant names one of its projects, a project key reads its own
 * (a projectId it gives must be its own).
 */
export async function webhookEndpointOf(deps: Deps, actor: Actor, projectId: string | null) {
  if (actor.kind === 'project') {
    if (projectId && projectId !== actor.projectId) throw AppError.notFound('Project');
    return deps.prisma.webhookEndpoint.findUnique({ where: { projectId: actor.projectId } });
  }
  const merchant = requireActor(actor, 'merchant', 'user');
  if (!projectId) throw AppError.invalid([{ field: 'projectId', message: 'is required with a merchant key' }]);
  const project = await findOwnedProject(deps.prisma, merchant.merchantId, projectId);
  return deps.prisma.webhookEndpoint.findUnique({ where: { projectId: project.id } });
}

/** Merchant: a new secret; for 24 h deliveries are signed with both, so receivers can switch over. */
export async function rotateWebhookSecret(deps: Deps, actor: Actor, projectId: string) {
  const merchant = requireActor(actor, 'merchant');
  const project = await findOwnedProject(deps.prisma, merchant.merchantId, projectId);
  return deps.prisma.$transaction(async (tx) => {
    const current = await tx.webhookEndpoint.findUnique({ where: { projectId: project.id } });
    if (!current) throw AppError.notFound('Webhook endpoint');
    const secret = newWebhookSecret();
    const endpoint = await tx.webhookEndpoint.update({
      where: { id: current.id },
      data: {
        secretCiphertext: deps.secrets.seal(secret),
        previousSecretCiphertext: current.secretCiphertext,
        previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_TTL_MS),
      },
    });
    await recordAudit(tx, actor, {
      action: 'webhook_endpoint.secret_rotated',
      subjectType: 'webhook_endpoint',
      subjectId: endpoint.id,
      projectId: project.id,
      changes: changesOf(current, endpoint, ['previousSecretExpiresAt']),
    });
    return { endpoint, secret };
  });
}
