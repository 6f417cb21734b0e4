import type { Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { queueDeliveries, queueDeliveriesOfEvents } from '../webhooks/deliveries.js';
import { paymentMetadata } from './fields.js';
import type { EventType, PaymentRow } from './types.js';
import { insertEvent, insertEvents, type EventRow } from './store/events.js';

/**
 * The event's data: the payment's fields as they are at this transition (docs/webhooks.md "What is
 * sent"), stored with the event in the transition's transaction. It is a fact of the event, not a
 * rendering of the payment now: every delivery and retry of it, days later, sends these fields
 * whatever the payment became, so it is written here and not by the webhook delivery
 * (docs/architecture.md, "A door never decides"). The delivery adds only `deliveryId` and `sentAt`.
 */
export function eventPayload(type: EventType, p: PaymentRow, extra: EventExtra = {}) {
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
    metadata: paymentMetadata(p),
    reason: type === 'payment.rejected' ? p.rejectReason : null,
    ...(type === 'payment.refunded' ? { refund: extra.refund ?? null, refundedAmount: p.refundedAmount.toString() } : {}),
    ...(type === 'payment.review_required' ? { reviewReason: p.reviewReason } : {}),
  };
}

/** What an event adds to the payment's fields: the refund it records. */
export type EventExtra = { refund?: { id: string; amount: string } };

/** The event row and its webhook deliveries (with their jobs), in the state change's transaction. */
export async function recordEvent(tx: Tx, jobs: JobQueue, type: EventType, payment: PaymentRow, extra: EventExtra = {}) {
  const event = await insertEvent(tx, { projectId: payment.projectId, paymentId: payment.id, type, payload: JSON.stringify(eventPayload(type, payment, extra)) });
  await queueDeliveries(tx, jobs, event);
  return event;
}

/**
 * `recordEvent` for many payments of one transition (the expiry sweep's batch): the same rows, in the
 * order given, with one INSERT for the events and each project's endpoint read once, instead of a
 * few statements per payment (a burst of deadlines: docs/BENCHMARKS.md "Growth"). By payment id.
 */
export async function recordEvents(tx: Tx, jobs: JobQueue, type: EventType, payments: PaymentRow[]): Promise<Map<string, EventRow>> {
  const events = await insertEvents(tx, payments.map((p) => ({ projectId: p.projectId, paymentId: p.id, type, payload: JSON.stringify(eventPayload(type, p)) })));
  await queueDeliveriesOfEvents(tx, jobs, events);
  return new Map(events.map((e) => [e.paymentId, e]));
}

/**
 * The attention event (opt-in): a payment that was not flagged for review and now is, in the same
 * transaction as the change that flagged it (a deposit's review, an expiry with a payer's report).
 */
export async function recordReviewRequired(tx: Tx, jobs: JobQueue, before: { reviewRequired: boolean }, after: PaymentRow) {
  if (!after.reviewRequired || before.reviewRequired) return null;
  return recordEvent(tx, jobs, 'payment.review_required', after);
}
