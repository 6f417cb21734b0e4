import { z } from 'zod';
import { loadView, paymentIdForToken } from '../domain/checkout/checkout.js';
import type { CheckoutView } from '../domain/checkout/view.js';
import { checkoutKeyScope } from '../domain/payments/idempotency.js';
import { transitionRefusal } from '../domain/payments/state-machine.js';
import { applyTransition, lockPayment, type LockedPayment } from '../domain/payments/transitions.js';
import type { Operation } from './operation.js';

/**
 * The payer gives up, by the checkout's token: pending → canceled (payment.canceled; the reserved
 * fee goes back). Whoever holds the token is the payer: no role, and nothing in the audit log (the
 * log records the merchant's side). A retried tap's key lives in the token's payment's key space.
 */
export const cancelCheckout: Operation<undefined, LockedPayment, CheckoutView> = {
  name: 'cancel a checkout',
  who: 'payer',
  input: z.undefined(),
  emits: ['payment.canceled'],
  keySpace: async (tx, token) => checkoutKeyScope(await paymentIdForToken(tx, token)),
  load: async (tx, { id: token }) => lockPayment(tx, await paymentIdForToken(tx, token)),
  check: (payment) => transitionRefusal(payment, 'cancel', payment.lockedAt),
  async write(tx, payment, _input, deps) {
    await applyTransition(tx, deps.jobs, payment, 'cancel');
    return { result: await loadView(tx, payment.id), audit: [] };
  },
};
