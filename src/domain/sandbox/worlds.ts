/**
 * Real money and simulations never meet: a real bank message settles live payments only, a
 * simulated one sandbox payments only. Real money never settles a free sandbox payment, and a
 * simulation never settles a live one. Matching (`decideMatch`) and the merchant's attach
 * (`attachRefusal`) both ask this; the payments guard trigger refuses the same confirmation.
 */

/** Which side broke the rule, or null when the message may settle the payment. */
export type WorldMismatch = 'simulation_for_live' | 'real_money_for_sandbox';

export function worldMismatch(message: { simulated: boolean }, payment: { sandbox: boolean }): WorldMismatch | null {
  if (message.simulated === payment.sandbox) return null;
  return message.simulated ? 'simulation_for_live' : 'real_money_for_sandbox';
}
