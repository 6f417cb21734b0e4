import { AppError } from '../errors.js';
import { requireActor, type Actor } from '../domain/auth/actor.js';
import { settle } from '../domain/bank-messages/messages.js';
import { matchScope } from '../domain/cards/selection.js';
import type { Deps } from '../domain/deps.js';
import { matchDeposit } from '../domain/matching/match-deposit.js';
import { findTarget, simulateInput, simulatedAmount, storeSimulatedMessage } from '../domain/sandbox/simulation.js';
import { parseInput } from '../domain/validation.js';

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
  const amount = await simulatedAmount(deps, data, target, scope);
  const now = new Date();
  const messageId = await deps.prisma.$transaction(async (tx) => {
    const message = await storeSimulatedMessage(tx, project, card, amount, data.outcome, now);
    const result = await matchDeposit(tx, deps.jobs, message.id, scope, [card], { amount, at: now, payerCardLast4: data.payerCardLast4 ?? null, simulated: true });
    await settle(tx, message.id, result.status, result.statusReason, { ...result, cardId: card.id, projectId: project.projectId });
    return message.id;
  });
  const message = await deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: messageId } });
  const payment = await deps.prisma.payment.findUniqueOrThrow({ where: { id: target.id } });
  return { simulatedAmount: amount, message, payment };
}
