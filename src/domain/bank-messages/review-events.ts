import type { Tx } from '../../db/prisma.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { queueDeliveries } from '../webhooks/deliveries.js';

/**
 * The attention event `bank_message.needs_review` (opt-in; docs/exceptions.md "13. What the
 * webhooks say"): a deposit held for the merchant, with its machine reason and the payments it
 * could be. One event per project among those payments (each project's endpoint hears of its own
 * payments only), written in the transaction that held the message.
 */
export async function recordMessageNeedsReview(
  tx: Tx,
  jobs: JobQueue,
  message: { id: string; amount: bigint; reviewReason: string },
  candidates: { id: string; projectId: string }[],
): Promise<void> {
  const byProject = new Map<string, string[]>();
  for (const c of candidates) byProject.set(c.projectId, [...(byProject.get(c.projectId) ?? []), c.id]);
  for (const [projectId, paymentIds] of byProject) {
    const payload = { event: 'bank_message.needs_review', bankMessageId: message.id, projectId, reviewReason: message.reviewReason, amount: message.amount.toString(), candidatePaymentIds: paymentIds };
    const event = await tx.event.create({
      data: { projectId, bankMessageId: message.id, type: 'bank_message.needs_review', payload: payload as Prisma.InputJsonObject },
    });
    await queueDeliveries(tx, jobs, event);
  }
}
