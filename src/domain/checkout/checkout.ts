import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';
import type { Deps } from '../deps.js';
import { checkoutKeyScope, underKey, type Answer, type Idempotent } from '../payments/idempotency.js';
import { lockPayment } from '../payments/transitions.js';
import { cardLast4Schema, latinDigits, parseInput, phoneSchema } from '../validation.js';
import { checkoutSourceByToken } from '../payments/store/checkout-view.js';
import { checkoutView, type CheckoutView } from './view.js';

const TOKEN = /^[A-Za-z0-9_-]{10,64}$/;

export async function paymentIdForToken(db: Pick<Tx, 'payment'>, token: string): Promise<string> {
  const found = TOKEN.test(token) ? await db.payment.findUnique({ where: { token }, select: { id: true } }) : null;
  if (!found) throw AppError.notFound('Payment');
  return found.id;
}

/** The payer's view of a payment, by its token (public: the token is the secret). */
export async function getCheckout(deps: Deps, token: string): Promise<CheckoutView> {
  // The payer's page polls this: one statement, no Prisma (payments/store/checkout-view.ts).
  const source = TOKEN.test(token) ? await checkoutSourceByToken(deps.pool, token) : undefined;
  if (!source) throw AppError.notFound('Payment');
  return checkoutView(source);
}

export async function loadView(db: Pick<Tx, 'payment'>, paymentId: string): Promise<CheckoutView> {
  const p = await db.payment.findUniqueOrThrow({ where: { id: paymentId }, include: { project: true, card: true, link: true } });
  return checkoutView(p);
}

export const reportInput = z
  .object({
    payerCardLast4: cardLast4Schema.nullish(),
    payerTrackingNumber: z.string().trim().min(1).max(40, 'must be at most 40 characters').transform(latinDigits).nullish(),
    payerPhone: phoneSchema.nullish(),
  })
  .strict();

/**
 * The payer says they transferred the money. Recorded while pending; it does not confirm anything
 * (only a deposit or the merchant does), but flags the payment for review if no deposit comes.
 */
export async function reportCheckoutPayment(deps: Deps, token: string, input: unknown): Promise<CheckoutView>;
export async function reportCheckoutPayment(deps: Deps, token: string, input: unknown, idem: Idempotent<CheckoutView> | undefined): Promise<CheckoutView | Answer>;
export async function reportCheckoutPayment(deps: Deps, token: string, input: unknown, idem?: Idempotent<CheckoutView>): Promise<CheckoutView | Answer> {
  const data = parseInput(reportInput, input ?? {});
  return checkoutDecision(deps, token, idem, async (tx, paymentId) => {
    const payment = await lockPayment(tx, paymentId);
    if (payment.status !== 'pending') {
      throw new AppError('invalid_state', `The payment is ${payment.status}; it can no longer be reported.`, { status: payment.status });
    }
    await tx.payment.update({
      where: { id: payment.id },
      data: {
        payerReportedPaidAt: new Date(),
        ...(data.payerCardLast4 ? { payerCardLast4: data.payerCardLast4 } : {}),
        ...(data.payerTrackingNumber ? { payerTrackingNumber: data.payerTrackingNumber } : {}),
        ...(data.payerPhone ? { payerPhone: data.payerPhone } : {}),
      },
    });
    await notifyPaymentChanged(tx, payment);
    return loadView(tx, payment.id);
  });
}

/**
 * A payer's step in one transaction; under an idempotency key (a retried tap) in the key space of
 * the token's payment: whoever holds the token is that payment's payer.
 */
async function checkoutDecision(deps: Deps, token: string, idem: Idempotent<CheckoutView> | undefined, run: (tx: Tx, paymentId: string) => Promise<CheckoutView>): Promise<CheckoutView | Answer> {
  return deps.prisma.$transaction(async (tx) => {
    const paymentId = await paymentIdForToken(tx, token);
    return idem ? underKey(tx, checkoutKeyScope(paymentId), idem, () => run(tx, paymentId)) : run(tx, paymentId);
  });
}
