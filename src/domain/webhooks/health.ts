import type { Tx } from '../../db/prisma.js';
import { recordAudit, systemActor } from '../audit/audit.js';
import type { Deps } from '../deps.js';
import { attemptCountsSince } from './store/attempts.js';

/** Svix and Stripe disable an endpoint whose every attempt has failed for 5 days. */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;
const RECENT_MS = 24 * 60 * 60 * 1000;

/** What one attempt's outcome does to its endpoint's health: a pure decision, so it is unit-testable. */
export function nextHealth(endpoint: { active: boolean; failingSince: Date | null }, ok: boolean, at: Date) {
  if (ok) return { failingSince: null, disable: false };
  const failingSince = endpoint.failingSince ?? at;
  return { failingSince, disable: endpoint.active && at.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS };
}

/**
 * Records an attempt's outcome on its endpoint, in the attempt's transaction. A success clears the
 * failing streak; a failure starts it, and a streak of 5 days disables the endpoint: no new
 * deliveries are queued for it and pending ones stop, until setWebhookEndpoint re-enables it.
 */
export async function recordEndpointOutcome(tx: Tx, endpointId: string, ok: boolean, at: Date): Promise<void> {
  const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, select: { active: true, failingSince: true, projectId: true } });
  const next = nextHealth(endpoint, ok, at);
  if (!next.disable && (next.failingSince?.getTime() ?? null) === (endpoint.failingSince?.getTime() ?? null)) return;
  await tx.webhookEndpoint.update({
    where: { id: endpointId },
    data: next.disable
      ? {
          failingSince: next.failingSince,
          active: false,
          disabledAt: at,
          disabledReason: `Every delivery attempt failed for 5 days (since ${next.failingSince!.toISOString()}).`,
        }
      : { failingSince: next.failingSince },
  });
  if (next.disable) {
    await recordAudit(tx, systemActor('webhook health'), {
      action: 'webhook_endpoint.disabled',
      subjectType: 'webhook_endpoint',
      subjectId: endpointId,
      projectId: endpoint.projectId,
      note: 'Every delivery attempt failed for 5 days.',
      changes: { active: { from: true, to: false } },
    });
  }
}

/** The share of the endpoint's attempts in the last 24 h that got a 2xx; null when there were none. */
export async function recentSuccess(deps: Pick<Deps, 'prisma'>, endpointId: string, now = new Date()) {
  const since = new Date(now.getTime() - RECENT_MS);
  const row = await attemptCountsSince(deps.prisma, endpointId, since);
  const attempts = Number(row?.attempts ?? 0);
  return { attempts, rate: attempts === 0 ? null : Number(row!.succeeded) / attempts };
}
