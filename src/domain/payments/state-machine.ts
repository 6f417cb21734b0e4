import { AppError } from '../../errors.js';
import type { EventType, PaymentStatus } from './types.js';

/**
 * The payment state machine (SPEC 3), in one place. Every transition is applied under the
 * payment's row lock by `applyTransition`, and only when `checkTransition` allows it.
 */
export const transitions = {
  confirm: { to: 'confirmed', event: 'payment.confirmed' },
  expire: { to: 'expired', event: 'payment.expired' },
  cancel: { to: 'canceled', event: 'payment.canceled' },
  reject: { to: 'rejected', event: 'payment.rejected' },
} as const satisfies Record<string, { to: PaymentStatus; event: EventType }>;

export type TransitionName = keyof typeof transitions;

type Subject = { status: string; expiresAt: Date; lateUntil: Date };

/** Why a transition is not allowed now, or null when it is. */
export function refusal(p: Subject, name: TransitionName, now: Date): string | null {
  switch (name) {
    case 'confirm':
      if (p.status === 'pending') return null;
      if (p.status === 'expired' && now.getTime() <= p.lateUntil.getTime()) return null;
      return p.status === 'expired' ? 'the late-confirmation window has ended' : `the payment is ${p.status}`;
    case 'expire':
      if (p.status !== 'pending') return `the payment is ${p.status}`;
      return now.getTime() >= p.expiresAt.getTime() ? null : 'the payment has not reached its deadline';
    case 'cancel':
    case 'reject':
      return p.status === 'pending' ? null : `the payment is ${p.status}`;
  }
}

export function checkTransition(p: Subject, name: TransitionName, now: Date): void {
  const why = refusal(p, name, now);
  if (why) throw new AppError('invalid_state', `Cannot ${name} this payment: ${why}.`, { status: p.status });
}
