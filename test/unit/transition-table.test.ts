import { describe, expect, it } from 'vitest';
import { feeEffect, refusal, TRANSITIONS, transitionFields, type TransitionName } from '../../src/domain/payments/state-machine.js';
import { PAYMENT_STATUSES } from '../../src/domain/payments/types.js';

const now = new Date('2026-11-21T10:00:00.000Z');
const at = (s: number) => new Date(now.getTime() + s * 1000);
const RECEIPT = /^[A-HJ-NP-Z2-9]{8}$/;

/** A live payment with its fee reserved, past its deadline and inside its late window unless told otherwise. */
function payment(status: string, extra: Partial<{ expiresAt: Date; lateUntil: Date; sandbox: boolean; feeState: string; payerReportedPaidAt: Date | null; reviewRequired: boolean }> = {}) {
  return { status, expiresAt: at(-10), lateUntil: at(3600), sandbox: false, feeState: 'reserved', payerReportedPaidAt: null, reviewRequired: false, amountFinal: 100_120n, ...extra };
}
/** Past its late window: only the merchant's exceptions can still confirm it. */
const ended = (status: string, extra: Parameters<typeof payment>[1] = {}) => payment(status, { expiresAt: at(-7200), lateUntil: at(-3600), ...extra });
const sandbox = (status: string) => payment(status, { sandbox: true, feeState: 'none' });

describe('the transition table', () => {
  it('enters a distinct status by each transition, with its own event', () => {
    expect(Object.fromEntries(Object.entries(TRANSITIONS).map(([name, t]) => [name, [t.from, t.to, t.event]]))).toEqual({
      confirm: [['pending', 'expired'], 'confirmed', 'payment.confirmed'],
      attach: [['pending', 'expired', 'canceled'], 'confirmed', 'payment.confirmed'],
      confirm_late: [['expired'], 'confirmed', 'payment.confirmed'],
      expire: [['pending'], 'expired', 'payment.expired'],
      cancel: [['pending'], 'canceled', 'payment.canceled'],
      reject: [['pending'], 'rejected', 'payment.rejected'],
    });
  });

  it('refuses every transition from a status outside its from-states, whatever the clock', () => {
    for (const name of Object.keys(TRANSITIONS) as TransitionName[]) {
      const from: readonly string[] = TRANSITIONS[name].from;
      for (const status of PAYMENT_STATUSES) {
        const why = refusal(name === 'confirm_late' ? ended(status) : payment(status), name, now);
        if (from.includes(status)) expect(why, `${name} from ${status}`).toBeNull();
        else expect(why, `${name} from ${status}`).toBe(`the payment is ${status}`);
      }
    }
  });
});

describe('confirm', () => {
  it('stamps confirmedAt, draws a receipt code and debits a live fee', () => {
    expect(transitionFields('confirm', payment('pending'), now)).toEqual({
      status: 'confirmed',
      confirmedAt: now,
      receiptCode: expect.stringMatching(RECEIPT),
      feeState: 'debited',
      amountReceived: 100_120n,
      confirmedLate: false,
    });
    expect(feeEffect('confirm', payment('expired'), now)).toBe('debit');
  });

  it('leaves a sandbox payment’s fee state alone: it has none', () => {
    expect(transitionFields('confirm', sandbox('pending'), now, 99_000n)).toEqual({
      status: 'confirmed',
      confirmedAt: now,
      receiptCode: expect.stringMatching(RECEIPT),
      amountReceived: 99_000n,
      confirmedLate: false,
    });
    expect(feeEffect('confirm', sandbox('pending'), now)).toBe('none');
  });
});

describe('the merchant’s exceptions: attach and confirm_late', () => {
  it('confirm refuses after the late window; confirm_late only then', () => {
    expect(refusal(ended('expired'), 'confirm', now)).toBe('its late-confirmation window has ended');
    expect(refusal(ended('expired'), 'confirm_late', now)).toBeNull();
    expect(refusal(payment('expired'), 'confirm_late', now)).toMatch(/late window is still open/);
  });

  it('attach takes a canceled payment and any expired one, and marks a confirmation after the window late', () => {
    expect(refusal(ended('canceled', { feeState: 'released' }), 'attach', now)).toBeNull();
    expect(refusal(ended('expired', { feeState: 'released' }), 'attach', now)).toBeNull();
    expect(transitionFields('attach', ended('expired', { feeState: 'released' }), now, 50_000n)).toMatchObject({ status: 'confirmed', amountReceived: 50_000n, confirmedLate: true, feeState: 'debited' });
    expect(transitionFields('attach', payment('pending'), now)).toMatchObject({ confirmedLate: false, amountReceived: 100_120n });
  });

  it('charge a released fee again, debit a reserved one, and leave a sandbox payment’s alone', () => {
    expect(feeEffect('attach', payment('canceled', { feeState: 'released' }), now)).toBe('charge_again');
    expect(feeEffect('confirm_late', ended('expired', { feeState: 'released' }), now)).toBe('charge_again');
    expect(feeEffect('attach', payment('pending'), now)).toBe('debit');
    expect(feeEffect('attach', sandbox('canceled'), now)).toBe('none');
    // The engine's own confirmation never charges a released fee: the state machine refuses it first.
    expect(feeEffect('confirm', payment('expired', { feeState: 'released' }), now)).toBe('none');
  });
});

describe('expire', () => {
  it('stamps expiredAt and holds a live fee while the late window is open', () => {
    expect(transitionFields('expire', payment('pending'), now)).toEqual({ status: 'expired', expiredAt: now });
    expect(feeEffect('expire', payment('pending'), now)).toBe('hold');
  });

  it('releases a live fee at once when the late window is already over (a window of 0)', () => {
    const noWindow = payment('pending', { expiresAt: at(-1), lateUntil: at(-1) });
    expect(transitionFields('expire', noWindow, now)).toEqual({ status: 'expired', expiredAt: now, feeState: 'released' });
    expect(feeEffect('expire', noWindow, now)).toBe('release');
  });

  it('holds the fee at the last instant of the window, which still takes a late confirmation', () => {
    expect(feeEffect('expire', payment('pending', { expiresAt: now, lateUntil: now }), now)).toBe('hold');
  });

  it('flags a payer who reported paying for review', () => {
    expect(transitionFields('expire', payment('pending', { payerReportedPaidAt: at(-60) }), now)).toEqual({
      status: 'expired',
      expiredAt: now,
      reviewRequired: true,
      reviewReason: 'payer_reported_no_deposit',
    });
  });

  it('keeps a review already asked for under its own reason', () => {
    expect(transitionFields('expire', payment('pending', { payerReportedPaidAt: at(-60), reviewRequired: true }), now)).toEqual({ status: 'expired', expiredAt: now });
  });

  it('does nothing to a sandbox payment’s fee', () => {
    expect(transitionFields('expire', { ...sandbox('pending'), lateUntil: at(-1) }, now)).toEqual({ status: 'expired', expiredAt: now });
    expect(feeEffect('expire', sandbox('pending'), now)).toBe('none');
  });
});

describe('cancel and reject', () => {
  it('stamp their time and release a live fee at once', () => {
    const review = { reviewRequired: false, reviewReason: null };
    expect(transitionFields('cancel', payment('pending'), now)).toEqual({ status: 'canceled', canceledAt: now, feeState: 'released', ...review });
    expect(transitionFields('reject', payment('pending'), now)).toEqual({ status: 'rejected', rejectedAt: now, feeState: 'released', ...review });
    expect(feeEffect('cancel', payment('pending'), now)).toBe('release');
    expect(feeEffect('reject', payment('pending'), now)).toBe('release');
  });

  it('do nothing to a sandbox payment’s fee', () => {
    expect(transitionFields('cancel', sandbox('pending'), now)).toEqual({ status: 'canceled', canceledAt: now, reviewRequired: false, reviewReason: null });
    expect(transitionFields('reject', sandbox('pending'), now)).toEqual({ status: 'rejected', rejectedAt: now, reviewRequired: false, reviewReason: null });
    expect(feeEffect('reject', sandbox('pending'), now)).toBe('none');
  });
});
