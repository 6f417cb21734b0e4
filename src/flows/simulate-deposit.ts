import { AppError } from '../errors.js';
import { requireActor, type Actor } from '../domain/auth/actor.js';
import { settle } from '../domain/bank-messages/messages.js';
import { matchScope } from '../domain/cards/selection.js';
import type { Deps } from '../domain/deps.js';
import { matchDeposit } from '../domain/matching/match-deposit.js';
import { unknownSender } from '../domain/bank-messages/evidence.js';
import { findTarget, simulateInput, simulatedAmount, storeSimulatedMessage } from '../domain/sandbox/simulation.js';
import { parseInput } from '../domain/validation.js';
import { decide, type Answer, type Idempotent } from '../domain/payments/idempotency.js';
import type { PaymentRow } from '../domain/payments/types.js';
import type { BankMessage } from '../generated/prisma/client.js';

export type Simulation = { simulatedAmount: bigint; message: BankMessage; payment: PaymentRow };

/**
 * Sandbox: feeds one simulated deposit for a payment's card into the same engine real SMS use,
 * synchronously, and answers with what the engine decided (SPEC 2.5). Under an idempotency key a
 * retried simulation feeds one deposit: the key is claimed in the simulation's transaction.
 */
export async function simulateDeposit(deps: Deps, actor: Actor, input: unknown): Promise<Simulation>;
export async function simulateDeposit(deps: Deps, actor: Actor, input: unknown, idem: Idempotent<Simulation> | undefined): Promise<Simulation | Answer>;
export async function simulateDeposit(deps: Deps, actor: Actor, input: unknown, idem?: Idempotent<Simulation>): Promise<Simulation | Answer> {
  const project = requireActor(actor, 'project');
  if (!project.sandbox) throw new AppError('sandbox_only');
  const data = parseInput(simulateInput, input);
  const target = await findTarget(deps, project.projectId, data.paymentId, data.token);
  const card = await deps.prisma.card.findUniqueOrThrow({ where: { id: target.cardId } });
  const scope = matchScope({ id: card.id, device_id: card.deviceId });
  const amount = await simulatedAmount(deps, data, target, scope);
  const now = new Date();
  return decide(deps, actor, idem, async (tx) => {
    const message = await storeSimulatedMessage(tx, project, card, amount, data.outcome, now);
    // A message from a personal number is held, whatever it says (docs/security.md).
    const review = data.outcome === 'unknown_sender' ? unknownSender(card.bankCode, message.sender) : null;
    const result = await matchDeposit(tx, deps.jobs, message.id, scope, [card], { amount, at: now, payerCardLast4: data.payerCardLast4 ?? null, simulated: true, review });
    await settle(tx, message.id, result.status, result.statusReason, { ...result, cardId: card.id, projectId: project.projectId });
    // The same deposit again (a re-send, a second forwarder): one deposit, this one a copy.
    const shown = data.outcome === 'duplicate' ? await storeSimulatedMessage(tx, project, card, amount, data.outcome, now, message) : message;
    return {
      simulatedAmount: amount,
      message: await tx.bankMessage.findUniqueOrThrow({ where: { id: shown.id } }),
      payment: await tx.payment.findUniqueOrThrow({ where: { id: target.id } }),
    };
  });
}
