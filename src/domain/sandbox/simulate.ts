import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { settle } from '../bank-messages/ingest.js';
import { matchScope } from '../cards/selection.js';
import type { Deps } from '../deps.js';
import { matchDeposit } from '../matching/match-deposit.js';
import type { PaymentRow } from '../payments/types.js';
import { amountSchema, cardLast4Schema, parseInput, uuidSchema } from '../validation.js';

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

async function findTarget(deps: Deps, projectId: string, paymentId?: string, token?: string): Promise<PaymentRow> {
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
    const [claimed] = await deps.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*)::bigint AS n FROM amount_holds h JOIN payments p ON p.id = h.payment_id
      WHERE h.scope = ${scope} AND h.released_at IS NULL AND (h.amount = ${candidate} OR p.amount_requested = ${candidate})`;
    if (claimed!.n === 0n) return candidate;
  }
}

/**
 * Sandbox: feeds one simulated deposit for a payment's card into the same engine real SMS use,
 * synchronously, and answers with what the engine decided (SPEC 2.5).
 */
export async function simulateDeposit(deps: Deps, actor: Actor, input: unknown) {
  const project = requireActor(actor, 'project');
  if (!project.sandbox) throw new AppError('sandbox_only');
  const data = parseInput(simulateInput, input);
  const target = await findTarget(deps, project.projectId, data.paymentId, data.token);
  const card = await deps.prisma.card.findUniqueOrThrow({ where: { id: target.cardId } });
  const scope = matchScope({ id: card.id, device_id: card.deviceId });
  const amount =
    data.outcome === 'match' ? target.amountFinal
    : data.outcome === 'base_amount' ? target.amountRequested
    : data.outcome === 'wrong_amount' ? await unclaimedAmount(deps, scope, target)
    : data.amount!;

  const now = new Date();
  const body = `SANDBOX deposit ${amount} rials to card …${card.cardNumber.slice(-4)} (${data.outcome}) ${randomUUID()}`;
  const messageId = await deps.prisma.$transaction(async (tx) => {
    const message = await tx.bankMessage.create({
      data: {
        merchantId: project.merchantId,
        projectId: project.projectId,
        cardId: card.id,
        simulated: true,
        sender: 'sandbox',
        body,
        bodySha256: createHash('sha256').update(body).digest('hex'),
        receivedAt: now,
        bankCode: card.bankCode,
        direction: 'deposit',
        amount,
        accountHint: card.cardNumber.slice(-4),
        bankTime: now,
      },
    });
    const result = await matchDeposit(
      tx,
      deps.jobs,
      message.id,
      scope,
      [{ id: card.id, projectId: card.projectId, cardNumber: card.cardNumber, accountNumber: card.accountNumber }],
      { amount, at: now, payerCardLast4: data.payerCardLast4 ?? null, simulated: true },
    );
    await settle(tx, message.id, result.status, result.statusReason, { ...result, cardId: card.id, projectId: project.projectId });
    return message.id;
  });
  const message = await deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: messageId } });
  const payment = await deps.prisma.payment.findUniqueOrThrow({ where: { id: target.id } });
  return { simulatedAmount: amount, message, payment };
}
