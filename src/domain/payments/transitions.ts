import { randomInt } from 'node:crypto';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { debitReservedFee, releaseReservedFee } from '../credit/fees.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';
import { recordEvent } from './events.js';
import { checkTransition, transitions, type TransitionName } from './state-machine.js';
import type { PaymentRow } from './types.js';

const RECEIPT_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function newReceiptCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += RECEIPT_ALPHABET[randomInt(RECEIPT_ALPHABET.length)];
  return code;
}

/**
 * Locks a payment row for the rest of the transaction. `projectId` scopes it to the caller: another
 * project's payment is not found, exactly like one that does not exist.
 */
export async function lockPayment(tx: Tx, id: string, projectId?: string): Promise<PaymentRow> {
  const rows = projectId
    ? await tx.$queryRaw<{ id: string }[]>`SELECT id FROM payments WHERE id = ${id}::uuid AND project_id = ${projectId}::uuid FOR UPDATE`
    : await tx.$queryRaw<{ id: string }[]>`SELECT id FROM payments WHERE id = ${id}::uuid FOR UPDATE`;
  if (rows.length === 0) throw AppError.notFound('Payment');
  return tx.payment.findUniqueOrThrow({ where: { id } });
}

/**
 * Applies a transition to a locked payment: the status change and its fields, the credit
 * consequence, and the event row, all in the caller's transaction.
 */
export async function applyTransition(
  tx: Tx,
  jobs: JobQueue,
  payment: PaymentRow,
  name: TransitionName,
  fields: Prisma.PaymentUncheckedUpdateManyInput = {},
  now = new Date(),
): Promise<PaymentRow> {
  checkTransition(payment, name, now);
  const { to, event } = transitions[name];
  const data: Prisma.PaymentUncheckedUpdateManyInput = { ...fields, status: to };
  if (name === 'confirm') {
    await debitReservedFee(tx, payment);
    Object.assign(data, { confirmedAt: now, receiptCode: newReceiptCode(), feeState: payment.sandbox ? 'none' : 'debited' });
  } else if (name === 'cancel' || name === 'reject') {
    await releaseReservedFee(tx, payment);
    Object.assign(data, name === 'cancel' ? { canceledAt: now } : { rejectedAt: now });
    if (!payment.sandbox) data.feeState = 'released';
  } else {
    data.expiredAt = now;
  }
  // The status condition makes a lost lock impossible to miss: no row, no transition.
  const { count } = await tx.payment.updateMany({ where: { id: payment.id, status: payment.status }, data });
  if (count !== 1) throw new AppError('invalid_state', 'The payment changed concurrently; retry.', { status: payment.status });
  const updated = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
  const recorded = await recordEvent(tx, jobs, event, updated);
  await notifyPaymentChanged(tx, updated, recorded.id);
  return updated;
}
