import { z } from 'zod';
import { afterLateWindow } from '../domain/payments/state-machine.js';
import type { PaymentRow } from '../domain/payments/types.js';
import { confirmManually, loadManualConfirmation, noteSchema, type ManualConfirmation } from './confirm-by-hand.js';
import type { Operation } from './operation.js';

const input = z
  .object({ note: noteSchema })
  .refine((v) => Boolean(v.note), { path: ['note'], message: 'is required with late: true (why the payment is confirmed after its late window)' });

/**
 * `confirmPaymentManually` with `late: true`: also an expired payment after its late window, for
 * money the merchant saw in the bank with no SMS at all (`confirm_late`: `confirmedLate`, the fee
 * charged again if it had been released). Inside the window it is the ordinary confirmation.
 */
export const confirmPaymentLate: Operation<z.output<typeof input>, ManualConfirmation, PaymentRow> = {
  name: 'confirm a payment late',
  who: 'decider',
  input,
  emits: ['payment.expired', 'payment.review_required', 'payment.confirmed'],
  load: loadManualConfirmation,
  // The transition table refuses what no confirmation may do (a rejected or canceled payment).
  check: () => null,
  write: (tx, loaded, { note }, deps) => confirmManually(tx, deps, loaded, afterLateWindow(loaded.payment, loaded.payment.lockedAt) ? 'confirm_late' : 'confirm', note ?? null),
};
