import type { ErrorCode, ErrorDetails } from '../../errors.js';
import { TRANSITIONS } from '../payments/state-machine.js';
import { worldMismatch } from '../sandbox/worlds.js';

/**
 * "This deposit is this payment's money": the merchant's attach (docs/exceptions.md "Your
 * decisions"), as a pure decision over the message and the payment the flow locked. It refuses what
 * would break a money rule; everything else is the merchant's call.
 */

/** Outcomes of a message the merchant may still give to a payment. */
export const ATTACHABLE_MESSAGE_STATUSES = ['unmatched', 'needs_review'] as const;

export type AttachMessage = { status: string; direction: string | null; amount: bigint | null; simulated: boolean; merchantId: string };
export type AttachPayment = { status: string; sandbox: boolean; merchantId: string; amountFinal: bigint; amountRequested: bigint };

export type AttachRefusal = { code: ErrorCode; message: string; details: ErrorDetails };

export function attachRefusal(message: AttachMessage, payment: AttachPayment, acceptAmount: boolean): AttachRefusal | null {
  if (message.merchantId !== payment.merchantId) return { code: 'not_found', message: 'Payment not found.', details: {} };
  if (message.direction !== 'deposit' || message.amount === null) {
    return { code: 'invalid_state', message: 'Only a deposit can be attached to a payment.', details: { status: message.status, direction: message.direction } };
  }
  if (!(ATTACHABLE_MESSAGE_STATUSES as readonly string[]).includes(message.status)) {
    return { code: 'invalid_state', message: `Only a deposit that is ${ATTACHABLE_MESSAGE_STATUSES.join(' or ')} can be attached; this one is ${message.status}.`, details: { status: message.status } };
  }
  if (!(TRANSITIONS.attach.from as readonly string[]).includes(payment.status)) {
    return { code: 'invalid_state', message: `A deposit can be attached to a payment that is ${TRANSITIONS.attach.from.join(', ')}; this one is ${payment.status}.`, details: { status: payment.status } };
  }
  const mismatch = worldMismatch(message, payment);
  if (mismatch) {
    return {
      code: 'invalid_state',
      message: mismatch === 'simulation_for_live' ? 'A simulated deposit can only be attached to a sandbox payment.' : 'A real deposit can only be attached to a live payment.',
      details: { status: payment.status },
    };
  }
  if (!acceptAmount && message.amount !== payment.amountFinal && message.amount !== payment.amountRequested) {
    return {
      code: 'amount_mismatch',
      message: `The deposit is ${message.amount} rials; the payment asks for ${payment.amountFinal} (or ${payment.amountRequested} without its code). Attach with acceptAmount: true to take it anyway.`,
      details: { amount: message.amount.toString(), amountFinal: payment.amountFinal.toString(), amountRequested: payment.amountRequested.toString() },
    };
  }
  return null;
}
