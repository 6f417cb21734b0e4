import { createHash, randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/prisma.js';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { ActorOf } from '../auth/actor.js';
import { amountClaimed } from '../payments/store/holds.js';
import type { PaymentRow } from '../payments/types.js';
import { amountSchema } from '../banking/currency.js';
import { cardLast4Schema, uuidSchema } from '../validation.js';

/**
 * What a simulation sends (docs/integration.md "3. Confirmation (sandbox: simulate it)";
 * docs/exceptions.md "The rehearsal project"), so that a shop can rehearse every exception: the
 * amount of each outcome is `simulatedAmount`'s; `duplicate` sends the matching deposit twice,
 * `unknown_sender` a real-shaped SMS from a personal number.
 */
export const SIM_OUTCOMES = ['match', 'base_amount', 'wrong_amount', 'custom', 'unit_slip', 'underpaid', 'overpaid', 'duplicate', 'unknown_sender'] as const;
export type SimOutcome = (typeof SIM_OUTCOMES)[number];

/** What `underpaid` leaves out and `overpaid` adds, in rials. */
export const SIM_AMOUNT_SLIP = 10_000n;
/** The personal number an `unknown_sender` simulation comes from. */
export const SIM_PERSONAL_SENDER = '+989121234567';

export const simulateInput = z
  .object({
    paymentId: uuidSchema.optional(),
    token: z.string().min(10, 'must be 10..64 characters').max(64, 'must be 10..64 characters').optional(),
    outcome: z.enum(SIM_OUTCOMES, { message: `must be one of ${SIM_OUTCOMES.join(', ')}` }).default('match'),
    amount: amountSchema.optional(),
    payerCardLast4: cardLast4Schema.optional(),
  })
  .superRefine((d, ctx) => {
    if (!d.paymentId && !d.token) ctx.addIssue({ code: 'custom', path: ['paymentId'], message: 'paymentId or token is required' });
    if (d.outcome === 'custom' && d.amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is required with outcome custom' });
  });

/** The payment a simulation is for: by id or token, within the caller's project; both must name the same one. */
export async function findTarget(db: Db, projectId: string, paymentId?: string, token?: string): Promise<PaymentRow> {
  const byId = paymentId ? await db.payment.findFirst({ where: { id: paymentId, projectId } }) : null;
  const byToken = token ? await db.payment.findFirst({ where: { token, projectId } }) : null;
  if ((paymentId && !byId) || (token && !byToken)) throw AppError.notFound('Payment');
  if (byId && byToken && byId.id !== byToken.id) {
    throw AppError.invalid([{ field: 'token', message: 'names a different payment than paymentId' }]);
  }
  return (byId ?? byToken)!;
}

/** An amount that no live hold in the scope and no pending payment's base amount can claim. */
async function unclaimedAmount(db: Db, scope: string, payment: PaymentRow): Promise<bigint> {
  for (let step = 1n; ; step++) {
    const candidate = payment.amountFinal + 100_000n * step + 7n;
    if (!(await amountClaimed(db, scope, candidate))) return candidate;
  }
}

/** The deposit amount each outcome simulates. */
export async function simulatedAmount(db: Db, data: z.output<typeof simulateInput>, target: PaymentRow, scope: string): Promise<bigint> {
  switch (data.outcome) {
    case 'match':
    case 'duplicate':
    case 'unknown_sender':
      return target.amountFinal;
    case 'base_amount':
      return target.amountRequested;
    case 'wrong_amount':
      return unclaimedAmount(db, scope, target);
    case 'unit_slip':
      // The payer sent toman: a tenth of the rials.
      return target.amountFinal / 10n;
    case 'underpaid':
      return target.amountFinal - SIM_AMOUNT_SLIP;
    case 'overpaid':
      return target.amountFinal + SIM_AMOUNT_SLIP;
    case 'custom':
      return data.amount!;
  }
}

type SimCard = { id: string; projectId: string; bankCode: string; cardNumber: string };

/**
 * A simulated deposit stored as a bank message of the sandbox project's card (simulated: true).
 * `unknown_sender` is shaped like a real bank SMS and comes from a personal number; a copy
 * (`duplicateOf`) repeats the original's text and is stored as its duplicate.
 */
export function storeSimulatedMessage(
  tx: Tx,
  project: ActorOf<'project'>,
  card: SimCard,
  amount: bigint,
  outcome: SimOutcome,
  at: Date,
  duplicateOf?: { id: string; body: string },
) {
  const last4 = card.cardNumber.slice(-4);
  const body =
    duplicateOf?.body ??
    (outcome === 'unknown_sender'
      ? `واریز ${amount.toLocaleString('en-US')} ریال به کارت ${last4} مانده ${(amount * 3n).toLocaleString('en-US')} ${randomUUID().slice(0, 8)}`
      : `SANDBOX deposit ${amount} rials to card …${last4} (${outcome}) ${randomUUID()}`);
  return tx.bankMessage.create({
    data: {
      merchantId: project.merchantId,
      projectId: project.projectId,
      cardId: card.id,
      simulated: true,
      sender: outcome === 'unknown_sender' ? SIM_PERSONAL_SENDER : 'sandbox',
      body,
      ...(duplicateOf ? { status: 'duplicate', duplicateOfId: duplicateOf.id, statusReason: `The same deposit as message ${duplicateOf.id} (simulated twice).`, decidedAt: at } : {}),
      bodySha256: createHash('sha256').update(body).digest('hex'),
      receivedAt: at,
      bankCode: card.bankCode,
      direction: 'deposit',
      amount,
      accountHint: card.cardNumber.slice(-4),
      bankTime: at,
    },
  });
}
