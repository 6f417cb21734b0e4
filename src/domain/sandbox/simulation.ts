import { createHash, randomUUID } from 'node:crypto';
import type { Tx } from '../../db/prisma.js';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { ActorOf } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { amountClaimed } from '../payments/store/holds.js';
import type { PaymentRow } from '../payments/types.js';
import { amountSchema, cardLast4Schema, uuidSchema } from '../validation.js';

export const simulateInput = z
  .object({
    paymentId: uuidSchema.optional(),
    token: z.string().min(10, 'must be 10..64 characters').max(64, 'must be 10..64 characters').optional(),
    outcome: z.enum(['match', 'base_amount', 'wrong_amount', 'custom'], { message: 'must be match, base_amount, wrong_amount or custom' }).default('match'),
    amount: amountSchema.optional(),
    payerCardLast4: cardLast4Schema.optional(),
  })
  .superRefine((d, ctx) => {
    if (!d.paymentId && !d.token) ctx.addIssue({ code: 'custom', path: ['paymentId'], message: 'paymentId or token is required' });
    if (d.outcome === 'custom' && d.amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is required with outcome custom' });
  });

/** The payment a simulation is for: by id or token, within the caller's project; both must name the same one. */
export async function findTarget(deps: Deps, projectId: string, paymentId?: string, token?: string): Promise<PaymentRow> {
  const byId = paymentId ? await deps.prisma.payment.findFirst({ where: { id: paymentId, projectId } }) : null;
  const byToken = token ? await deps.prisma.payment.findFirst({ where: { token, projectId } }) : null;
  if ((paymentId && !byId) || (token && !byToken)) throw AppError.notFound('Payment');
  if (byId && byToken && byId.id !== byToken.id) {
    throw AppError.invalid([{ field: 'token', message: 'names a different payment than paymentId' }]);
  }
  return (byId ?? byToken)!;
}

/** An amount that no live hold in the scope and no pending payment's base amount can claim. */
async function unclaimedAmount(deps: Deps, scope: string, payment: PaymentRow): Promise<bigint> {
  for (let step = 1n; ; step++) {
    const candidate = payment.amountFinal + 100_000n * step + 7n;
    if (!(await amountClaimed(deps.prisma, scope, candidate))) return candidate;
  }
}

/** The deposit amount each outcome simulates. */
export async function simulatedAmount(deps: Deps, data: z.output<typeof simulateInput>, target: PaymentRow, scope: string): Promise<bigint> {
  if (data.outcome === 'match') return target.amountFinal;
  if (data.outcome === 'base_amount') return target.amountRequested;
  if (data.outcome === 'wrong_amount') return unclaimedAmount(deps, scope, target);
  return data.amount!;
}

type SimCard = { id: string; projectId: string; bankCode: string; cardNumber: string };

/** A simulated deposit stored as a bank message of the sandbox project's card (simulated: true). */
export function storeSimulatedMessage(tx: Tx, project: ActorOf<'project'>, card: SimCard, amount: bigint, outcome: string, at: Date) {
  const body = `SANDBOX deposit ${amount} rials to card …${card.cardNumber.slice(-4)} (${outcome}) ${randomUUID()}`;
  return tx.bankMessage.create({
    data: {
      merchantId: project.merchantId,
      projectId: project.projectId,
      cardId: card.id,
      simulated: true,
      sender: 'sandbox',
      body,
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
