import type { z } from 'zod';
import { requireActor, type ActorOf } from '../domain/auth/actor.js';
import { unknownSender } from '../domain/bank-messages/evidence.js';
import { settle } from '../domain/bank-messages/messages.js';
import { matchScope } from '../domain/cards/selection.js';
import { matchDeposit } from '../domain/matching/match-deposit.js';
import type { PaymentRow } from '../domain/payments/types.js';
import { findTarget, simulateInput, simulatedAmount, storeSimulatedMessage } from '../domain/sandbox/simulation.js';
import type { BankMessage, Card } from '../generated/prisma/client.js';
import type { Operation } from './operation.js';

export type Simulation = { simulatedAmount: bigint; message: BankMessage; payment: PaymentRow };

type Target = { project: ActorOf<'project'>; payment: PaymentRow; card: Card; scope: string; amount: bigint; at: Date };

/**
 * Sandbox: one simulated deposit for a payment's card, fed into the same engine real SMS use,
 * synchronously; the answer is what the engine decided (docs/integration.md, simulation). Under an
 * idempotency key a retried simulation feeds one deposit.
 */
export const simulateDeposit: Operation<z.output<typeof simulateInput>, Target, Simulation> = {
  name: 'simulate a deposit',
  who: 'sandbox',
  input: simulateInput,
  // What the engine decides for the deposit: a confirmation (after an expiry), or a review.
  emits: ['payment.expired', 'payment.review_required', 'payment.confirmed'],
  async load(tx, { actor, input }) {
    const project = requireActor(actor, 'project');
    const payment = await findTarget(tx, project.projectId, input.paymentId, input.token);
    const card = await tx.card.findUniqueOrThrow({ where: { id: payment.cardId } });
    const scope = matchScope({ id: card.id, device_id: card.deviceId });
    return { project, payment, card, scope, amount: await simulatedAmount(tx, input, payment, scope), at: new Date() };
  },
  check: () => null,
  async write(tx, { project, payment, card, scope, amount, at }, input, deps) {
    const message = await storeSimulatedMessage(tx, project, card, amount, input.outcome, at);
    // A message from a personal number is held, whatever it says (docs/security.md).
    const review = input.outcome === 'unknown_sender' ? unknownSender(card.bankCode, message.sender) : null;
    const result = await matchDeposit(tx, deps.jobs, message.id, scope, [card], { amount, at, payerCardLast4: input.payerCardLast4 ?? null, simulated: true, review });
    await settle(tx, message.id, result.status, result.statusReason, { ...result, cardId: card.id, projectId: project.projectId });
    // The same deposit again (a re-send, a second forwarder): one deposit, this one a copy.
    const shown = input.outcome === 'duplicate' ? await storeSimulatedMessage(tx, project, card, amount, input.outcome, at, message) : message;
    return {
      result: {
        simulatedAmount: amount,
        message: await tx.bankMessage.findUniqueOrThrow({ where: { id: shown.id } }),
        payment: await tx.payment.findUniqueOrThrow({ where: { id: payment.id } }),
      },
      audit: [],
    };
  },
};
