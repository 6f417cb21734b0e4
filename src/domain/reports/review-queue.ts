import { callerScope, scopeWhere } from '../auth/scope.js';
import type { Actor } from '../auth/actor.js';
import { visibleMessages } from '../bank-messages/decisions.js';
import type { Deps } from '../deps.js';
import { readPrisma } from './read-pool.js';

/** What needs a decision now (the review queue and its badge; schema.graphql `reviewQueue`). */
export type ReviewQueueCounts = { deposits: number; payments: number; total: number };

/** The statuses of a deposit still waiting for the merchant: held for review, or matching nothing. */
export const WAITING_DEPOSIT_STATUSES = ['needs_review', 'unmatched'] as const;

/**
 * The one count of what waits for the merchant: deposits held for review or unmatched (real SMS on
 * the live side, simulated ones on the test side) and payments flagged for review, of one mode,
 * all projects or one. The badge and the overview both read this; paymentStats' reviewCount is
 * per period of creation, a history, not this.
 */
export async function reviewQueueCounts(deps: Deps, actor: Actor, input: { projectId?: string | null; sandbox: boolean }): Promise<ReviewQueueCounts> {
  const db = readPrisma(deps);
  const scope = callerScope(actor, input.projectId);
  const [deposits, payments] = await Promise.all([
    db.bankMessage.count({ where: { AND: [visibleMessages(actor, input.projectId), { status: { in: [...WAITING_DEPOSIT_STATUSES] }, simulated: input.sandbox }] } }),
    db.payment.count({ where: { ...scopeWhere(scope), reviewRequired: true, sandbox: input.sandbox } }),
  ]);
  return { deposits, payments, total: deposits + payments };
}
