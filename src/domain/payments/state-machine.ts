import { AppError } from '../../errors.js';
import type { EventType, PaymentStatus } from './types.js';

/**
 * The payment state machine (SPEC 3) and the money rules around it, in one place. Every
 * transition is applied under the payment's row lock by `applyTransition`, and only when
 * `refusal` allows it; the database states the same rules again (migration `money_integrity`).
 */
export const transitions = {
  confirm: { to: 'confirmed', event: 'payment.confirmed' },
  expire: { to: 'expired', event: 'payment.expired' },
  cancel: { to: 'canceled', event: 'payment.canceled' },
  reject: { to: 'rejected', event: 'payment.rejected' },
} as const satisfies Record<string, { to: PaymentStatus; event: EventType }>;

export type TransitionName = keyof typeof transitions;

/** Statuses no transition leaves, except expired → confirmed inside the late window. */
export const FINAL_STATUSES = ['confirmed', 'expired', 'canceled', 'rejected'] as const satisfies readonly PaymentStatus[];
/** Final and never confirmed: the statuses whose reserved fee goes back to the merchant. */
export const UNCONFIRMED_FINAL_STATUSES = ['expired', 'canceled', 'rejected'] as const satisfies readonly PaymentStatus[];

type Subject = { status: string; expiresAt: Date; lateUntil: Date; sandbox: boolean; feeState: string };

const ended = (p: Subject, now: Date) => now.getTime() > p.lateUntil.getTime();

/** Why a transition is not allowed at `now`, or null when it is. */
export function refusal(p: Subject, name: TransitionName, now: Date): string | null {
  switch (name) {
    case 'confirm':
      if (p.status !== 'pending' && p.status !== 'expired') return `the payment is ${p.status}`;
      // Whether or not its expiry has been processed yet.
      if (ended(p, now)) return 'its late-confirmation window has ended';
      if (!p.sandbox && p.feeState !== 'reserved') return `its fee is ${p.feeState}, not reserved`;
      return null;
    case 'expire':
      if (p.status !== 'pending') return `the payment is ${p.status}`;
      return now.getTime() >= p.expiresAt.getTime() ? null : 'the payment has not reached its deadline';
    case 'cancel':
    case 'reject':
      return p.status === 'pending' ? null : `the payment is ${p.status}`;
  }
}

export function canConfirm(p: Subject, now: Date): boolean {
  return refusal(p, 'confirm', now) === null;
}

/** A pending payment confirmed after its deadline is first expired, so `payment.confirmed` follows `payment.expired`. */
export function confirmsLate(p: Subject, now: Date): boolean {
  return p.status === 'pending' && now.getTime() >= p.expiresAt.getTime();
}

/**
 * A live payment's reserved fee goes back only once nothing can confirm it any more: canceled or
 * rejected, or expired with its late window over.
 */
export function feeReleaseRefusal(p: Subject, now: Date): string | null {
  if (p.sandbox || p.feeState !== 'reserved') return `its fee is ${p.sandbox ? 'none (sandbox)' : p.feeState}`;
  if (p.status === 'canceled' || p.status === 'rejected') return null;
  if (p.status === 'expired') return ended(p, now) ? null : 'its late window is still open';
  return `the payment is ${p.status}`;
}

/** Nothing more can happen to it: confirmed, canceled, rejected, or expired past its late window. */
export function isSettled(p: { status: string; lateUntil: Date }, now: Date): boolean {
  if (p.status === 'pending') return false;
  return p.status !== 'expired' || now.getTime() > p.lateUntil.getTime();
}

export function checkTransition(p: Subject, name: TransitionName, now: Date): void {
  const why = refusal(p, name, now);
  if (why) throw new AppError('invalid_state', `Cannot ${name} this payment: ${why}.`, { status: p.status });
}
