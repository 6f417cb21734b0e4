import { randomInt } from 'node:crypto';
import { AppError, type Refusal } from '../../errors.js';
import type { FINAL_EVENT_TYPES, PaymentStatus } from './types.js';

/**
 * What a transition does to a live payment's reserved fee (docs/dashboard.md "Credit and fees"): a
 * confirmation debits it; cancel and reject give it back at once; an expiry gives it back only once
 * its late window is over, since a late deposit may still confirm it until then.
 */
type FeeRule = 'debit' | 'charge' | 'release' | 'release_after_late_window';
type Stamp = 'confirmedAt' | 'expiredAt' | 'canceledAt' | 'rejectedAt';

/**
 * The payment state machine (schema.graphql `PaymentStatus`), one row per transition: the statuses
 * it leaves, the one it enters, the time it stamps, its fee rule and its event. `refusal`,
 * `feeEffect` and `transitionFields` read it; `applyTransition` (one payment) and `expireBatch`
 * (many) apply what they compute; the database's `payments_guard` states the same moves again, and
 * test/db/transition-guard.test.ts holds the two equal.
 *
 * `attach` and `confirm_late` are the merchant's exceptions (docs/exceptions.md "Your decisions"):
 * a deposit attached by hand confirms a pending, expired (at any time) or canceled payment; a late
 * manual confirmation confirms an expired one after its late window. Both `charge` the fee: debited
 * when still reserved, charged again when it had been released.
 */
export const TRANSITIONS = {
  confirm: { from: ['pending', 'expired'], to: 'confirmed', stamps: 'confirmedAt', fee: 'debit', event: 'payment.confirmed' },
  attach: { from: ['pending', 'expired', 'canceled'], to: 'confirmed', stamps: 'confirmedAt', fee: 'charge', event: 'payment.confirmed' },
  confirm_late: { from: ['expired'], to: 'confirmed', stamps: 'confirmedAt', fee: 'charge', event: 'payment.confirmed' },
  expire: { from: ['pending'], to: 'expired', stamps: 'expiredAt', fee: 'release_after_late_window', event: 'payment.expired' },
  cancel: { from: ['pending'], to: 'canceled', stamps: 'canceledAt', fee: 'release', event: 'payment.canceled' },
  reject: { from: ['pending'], to: 'rejected', stamps: 'rejectedAt', fee: 'release', event: 'payment.rejected' },
} as const satisfies Record<string, { from: readonly PaymentStatus[]; to: PaymentStatus; stamps: Stamp; fee: FeeRule; event: (typeof FINAL_EVENT_TYPES)[number] }>;

export type TransitionName = keyof typeof TRANSITIONS;

type Subject = { status: string; expiresAt: Date; lateUntil: Date; sandbox: boolean; feeState: string };
/** What a transition's fields also depend on: an expiry flags a payer who reported paying. */
type TransitionSubject = Subject & { payerReportedPaidAt: Date | null; reviewRequired: boolean };

const ended = (p: Subject, now: Date) => now.getTime() > p.lateUntil.getTime();

/** Why a transition is not allowed at `now`, or null when it is. */
export function refusal(p: Subject, name: TransitionName, now: Date): string | null {
  if (!(TRANSITIONS[name].from as readonly string[]).includes(p.status)) return `the payment is ${p.status}`;
  switch (name) {
    case 'confirm':
      // Whether or not its expiry has been processed yet.
      if (ended(p, now)) return 'its late-confirmation window has ended';
      if (!p.sandbox && p.feeState !== 'reserved') return `its fee is ${p.feeState}, not reserved`;
      return null;
    case 'attach':
      return null;
    case 'confirm_late':
      return ended(p, now) ? null : 'its late window is still open; confirm it without `late`';
    case 'expire':
      return now.getTime() >= p.expiresAt.getTime() ? null : 'the payment has not reached its deadline';
    case 'cancel':
    case 'reject':
      return null;
  }
}

export function canConfirm(p: Subject, now: Date): boolean {
  return refusal(p, 'confirm', now) === null;
}

/** A pending payment confirmed after its deadline is first expired, so `payment.confirmed` follows `payment.expired`. */
export function confirmsLate(p: Subject, now: Date): boolean {
  return p.status === 'pending' && now.getTime() >= p.expiresAt.getTime();
}

/** Whether a confirmation at `now` is after the payment's late window (`confirmedLate`). */
export const afterLateWindow = ended;

/**
 * A live payment's reserved fee goes back only once nothing can confirm it any more: by the fee
 * rule of the transition that brought it to its status (canceled or rejected, or expired with its
 * late window over).
 */
export function feeReleaseRefusal(p: Subject, now: Date): string | null {
  if (p.sandbox || p.feeState !== 'reserved') return `its fee is ${p.sandbox ? 'none (sandbox)' : p.feeState}`;
  const rule = Object.values(TRANSITIONS).find((t) => t.to === p.status)?.fee;
  if (rule === 'release') return null;
  if (rule === 'release_after_late_window') return ended(p, now) ? null : 'its late window is still open';
  return `the payment is ${p.status}`;
}

/**
 * What a transition does to the payment's credit at `now`: `hold` keeps a live fee reserved until
 * the late window ends (the late-window sweep gives it back then: jobs/end-late-windows.ts).
 */
export type FeeEffect = 'debit' | 'charge_again' | 'release' | 'hold' | 'none';

export function feeEffect(name: TransitionName, p: Subject, now: Date): FeeEffect {
  const { fee, to } = TRANSITIONS[name];
  // A released fee is charged again by the merchant's exceptions (reserved and debited at once).
  if (fee === 'charge' && !p.sandbox && p.feeState === 'released') return 'charge_again';
  if (p.sandbox || p.feeState !== 'reserved') return 'none';
  if (fee === 'debit' || fee === 'charge') return 'debit';
  return feeReleaseRefusal({ ...p, status: to }, now) === null ? 'release' : 'hold';
}

export type TransitionFields = Partial<Record<Stamp, Date>> & {
  status: PaymentStatus;
  feeState?: 'debited' | 'released';
  receiptCode?: string;
  amountReceived?: bigint;
  confirmedLate?: boolean;
  reviewRequired?: boolean;
  reviewReason?: 'payer_reported_no_deposit' | null;
};

/**
 * The columns a transition sets on the payment at `now`, its fee state included. A confirmation
 * records what came in: `received` (the deposit's amount), else the amount asked for.
 */
export function transitionFields(name: TransitionName, p: TransitionSubject & { amountFinal?: bigint }, now: Date, received?: bigint): TransitionFields {
  const { to, stamps } = TRANSITIONS[name];
  const fee = feeEffect(name, p, now);
  const base: TransitionFields = {
    status: to,
    [stamps]: now,
    ...(fee === 'debit' || fee === 'charge_again' ? { feeState: 'debited' as const } : fee === 'release' ? { feeState: 'released' as const } : {}),
  };
  switch (name) {
    case 'confirm':
    case 'attach':
    case 'confirm_late':
      return { ...base, receiptCode: newReceiptCode(), amountReceived: received ?? p.amountFinal, confirmedLate: ended(p, now) };
    case 'expire':
      // A payer who reported paying but whose deposit never came is flagged for the merchant's review.
      return p.payerReportedPaidAt !== null && !p.reviewRequired ? { ...base, reviewRequired: true, reviewReason: 'payer_reported_no_deposit' } : base;
    case 'cancel':
    case 'reject':
      // A final decision ends any review: the queue shows what still needs one.
      return { ...base, reviewRequired: false, reviewReason: null };
    default: {
      const unhandled: never = name;
      return unhandled;
    }
  }
}

const RECEIPT_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newReceiptCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += RECEIPT_ALPHABET[randomInt(RECEIPT_ALPHABET.length)];
  return code;
}

/** Nothing more can happen to it: confirmed, canceled, rejected, or expired past its late window. */
export function isSettled(p: { status: string; lateUntil: Date }, now: Date): boolean {
  if (p.status === 'pending') return false;
  return p.status !== 'expired' || now.getTime() > p.lateUntil.getTime();
}

/** A transition refused at `now`, as the error the caller gets (409 `invalid_state`); null when it is allowed. */
export function transitionRefusal(p: Subject, name: TransitionName, now: Date): Refusal | null {
  const why = refusal(p, name, now);
  return why ? { code: 'invalid_state', message: `Cannot ${name} this payment: ${why}.`, details: { status: p.status } } : null;
}

export function checkTransition(p: Subject, name: TransitionName, now: Date): void {
  const refused = transitionRefusal(p, name, now);
  if (refused) throw new AppError(refused.code, refused.message, refused.details);
}
