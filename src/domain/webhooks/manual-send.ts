import { timeOrderedId } from '../../db/ids.js';
import { AppError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { DELIVERY_INCLUDE, postDelivery, type LoadedDelivery } from './post.js';
import { recordAttempt } from './record.js';
import { withEndpointSlot } from './slots.js';

// A manual send waits this long for one of its endpoint's slots (automatic attempts hold one for
// up to the 10 s request timeout) before answering 429; the caller is told to come back after
// ENDPOINT_BUSY_RETRY_S.
const SLOT_WAIT_MS = 10_000;
const ENDPOINT_BUSY_RETRY_S = 10;

/**
 * Manual sends (re-send, test event) are POSTs the merchant waits on. Each counts against the
 * project's manual-send limit (rate-limits.ts, MANUAL_WEBHOOKS_PER_MINUTE) and holds one of the
 * endpoint's slots like an automatic attempt, so no burst of calls becomes a burst of POSTs.
 */
export async function countManualSend(deps: Deps, projectId: string): Promise<void> {
  await deps.limits?.consume('manualWebhook', projectId);
}

/** Re-sends a delivery once, whatever its state; the attempt is recorded as manual. */
export async function resendByHand(deps: Deps, delivery: LoadedDelivery): Promise<void> {
  await sendHolding(deps, delivery.endpointId, delivery.id, async () => delivery);
}

/** Sends a signed sample `payment.confirmed` to the endpoint, recorded as a test delivery; returns its id. */
export async function sendTestByHand(deps: Deps, endpoint: { id: string; projectId: string }): Promise<string> {
  const id = timeOrderedId();
  // The delivery is written once a slot is held: a send refused as busy leaves nothing behind.
  await sendHolding(deps, endpoint.id, id, async () => {
    await deps.prisma.webhookDelivery.create({
      data: { id, endpointId: endpoint.id, projectId: endpoint.projectId, eventType: 'payment.confirmed', test: true, status: 'pending' },
    });
    return deps.prisma.webhookDelivery.findUniqueOrThrow({ where: { id }, include: DELIVERY_INCLUDE });
  });
  return id;
}

async function sendHolding(deps: Deps, endpointId: string, holderId: string, load: () => Promise<LoadedDelivery>): Promise<void> {
  const limit = deps.config.webhookEndpointConcurrency;
  const sent = await withEndpointSlot(
    deps,
    { endpointId, holderId, limit },
    async () => {
      const delivery = await load();
      await recordAttempt(deps, delivery, await postDelivery(deps, delivery), { manual: true });
    },
    SLOT_WAIT_MS,
  );
  if (!sent) {
    throw new AppError('rate_limited', `The webhook endpoint has ${limit} deliveries in flight; retry in ${ENDPOINT_BUSY_RETRY_S} s.`, {
      retryAfterSeconds: ENDPOINT_BUSY_RETRY_S,
      reason: 'endpoint_busy',
    });
  }
}
