import type { Tx } from '../../db/prisma.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { queueDeliveries } from '../webhooks/deliveries.js';
import type { EventType, PaymentRow } from './types.js';

/**
 * The webhook body's payment fields as they are at this transition (SPEC 6). Written in the same
 * transaction as the state change; deliveries and subscriptions read it after commit.
 */
export function eventPayload(type: EventType, p: PaymentRow) {
  return {
    event: type,
    paymentId: p.id,
    status: p.status,
    orderId: p.orderId,
    amountRequested: p.amountRequested.toString(),
    amountFinal: p.amountFinal.toString(),
    confirmedAt: p.confirmedAt ? p.confirmedAt.toISOString() : null,
    confirmationSource: p.confirmationSource,
    sandbox: p.sandbox,
    metadata: (p.metadata ?? null) as Record<string, unknown> | null,
    reason: type === 'payment.rejected' ? p.rejectReason : null,
  };
}

/** The event row and its webhook deliveries (with their jobs), in the state change's transaction. */
export async function recordEvent(tx: Tx, jobs: JobQueue, type: EventType, payment: PaymentRow) {
  const event = await tx.event.create({
    data: { projectId: payment.projectId, paymentId: payment.id, type, payload: eventPayload(type, payment) as Prisma.InputJsonObject },
  });
  await queueDeliveries(tx, jobs, event);
  return event;
}
