import { describe, expect, it } from 'vitest';
import { confirmsLate, feeReleaseRefusal, isSettled, refusal } from '../../src/domain/payments/state-machine.js';
import { parseRetryAfter, retryDelayMs, RETRY_INTERVALS_S } from '../../src/domain/webhooks/schedule.js';
import { signatureHeader, signPayload, verifySignature } from '../../src/domain/webhooks/signature.js';

describe('webhook signature', () => {
  it('is lowercase hex HMAC-SHA256 over "t.body" with the secret’s UTF-8 bytes', () => {
    // Reference value computed independently: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test
    expect(signPayload('whsec_test', 1_700_000_000, '{"a":1}')).toBe('38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789');
  });

  it('verifies within 5 minutes and refuses older timestamps, other secrets and edited bodies', () => {
    const now = 1_700_000_000_000;
    const header = signatureHeader(['whsec_new', 'whsec_old'], now / 1000, 'body');
    expect(verifySignature(header, 'body', 'whsec_new', 300, now)).toBe(true);
    expect(verifySignature(header, 'body', 'whsec_old', 300, now)).toBe(true);
    expect(verifySignature(header, 'body', 'whsec_other', 300, now)).toBe(false);
    expect(verifySignature(header, 'body!', 'whsec_new', 300, now)).toBe(false);
    expect(verifySignature(header, 'body', 'whsec_new', 300, now + 300_000)).toBe(true);
    expect(verifySignature(header, 'body', 'whsec_new', 300, now + 301_000)).toBe(false);
  });
});

describe('webhook retry schedule', () => {
  it('follows 30 s, 1 m, 2 m, 5 m, 10 m, 30 m, 1 h, 2 h, 4 h, 8 h with ±10 % jitter, then stops', () => {
    expect(RETRY_INTERVALS_S).toEqual([30, 60, 120, 300, 600, 1800, 3600, 7200, 14400, 28800]);
    expect(retryDelayMs(1, 1, null, 0.5)).toBe(30_000);
    expect(retryDelayMs(1, 1, null, 0)).toBe(27_000);
    expect(retryDelayMs(1, 1, null, 1)).toBe(33_000);
    expect(retryDelayMs(10, 1, null, 0.5)).toBe(28_800_000);
    expect(retryDelayMs(11, 1, null, 0.5)).toBeNull();
    expect(retryDelayMs(2, 0.5, null, 0.5)).toBe(30_000);
  });

  it('lets a longer Retry-After replace the interval, up to 8 hours', () => {
    expect(retryDelayMs(1, 1, 120, 0.5)).toBe(120_000);
    expect(retryDelayMs(1, 1, 10, 0.5)).toBe(30_000);
    expect(retryDelayMs(1, 1, 100_000, 0.5)).toBe(28_800_000);
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThanOrEqual(59);
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('payment state machine', () => {
  const now = new Date('2026-11-21T10:00:00.000Z');
  const p = (status: string, expiresInS = 60, lateUntilS = 3600, extra: { sandbox?: boolean; feeState?: string } = {}) => ({
    status,
    expiresAt: new Date(now.getTime() + expiresInS * 1000),
    lateUntil: new Date(now.getTime() + lateUntilS * 1000),
    sandbox: extra.sandbox ?? false,
    feeState: extra.feeState ?? 'reserved',
  });
  it('confirms pending, and expired only inside the late window', () => {
    expect(refusal(p('pending'), 'confirm', now)).toBeNull();
    expect(refusal(p('expired', -10, 10), 'confirm', now)).toBeNull();
    expect(refusal(p('expired', -10, -1), 'confirm', now)).toMatch(/late-confirmation window/);
    for (const s of ['confirmed', 'canceled', 'rejected']) expect(refusal(p(s), 'confirm', now)).not.toBeNull();
  });
  it('never confirms after the late window, even a payment still pending (its expiry lagging)', () => {
    expect(refusal(p('pending', -10, -1), 'confirm', now)).toMatch(/late-confirmation window/);
    expect(refusal(p('pending', -10, 0), 'confirm', now)).toBeNull();
    expect(confirmsLate(p('pending', -10, 10), now)).toBe(true);
    expect(confirmsLate(p('pending', 10, 20), now)).toBe(false);
  });
  it('never confirms a live payment whose fee is not reserved; sandbox payments have no fee', () => {
    expect(refusal(p('expired', -10, 10, { feeState: 'released' }), 'confirm', now)).toMatch(/fee is released/);
    expect(refusal(p('pending', 10, 20, { sandbox: true, feeState: 'none' }), 'confirm', now)).toBeNull();
  });
  it('releases a fee only for a final unconfirmed payment, and an expired one only after its late window', () => {
    expect(feeReleaseRefusal(p('pending', -10, -1), now)).toMatch(/pending/);
    expect(feeReleaseRefusal(p('expired', -10, 5), now)).toMatch(/late window/);
    expect(feeReleaseRefusal(p('expired', -10, -1), now)).toBeNull();
    expect(feeReleaseRefusal(p('canceled'), now)).toBeNull();
    expect(feeReleaseRefusal(p('confirmed', -10, -1, { feeState: 'debited' }), now)).not.toBeNull();
    expect(feeReleaseRefusal(p('canceled', 10, 20, { sandbox: true, feeState: 'none' }), now)).not.toBeNull();
  });
  it('expires pending payments only at their deadline; cancels and rejects pending ones only', () => {
    expect(refusal(p('pending', 1), 'expire', now)).not.toBeNull();
    expect(refusal(p('pending', 0), 'expire', now)).toBeNull();
    expect(refusal(p('confirmed', -5), 'expire', now)).not.toBeNull();
    expect(refusal(p('pending'), 'cancel', now)).toBeNull();
    expect(refusal(p('expired', -5), 'reject', now)).not.toBeNull();
  });
  it('is settled once nothing more can happen', () => {
    expect(isSettled(p('pending', -10, -1), now)).toBe(false);
    expect(isSettled(p('expired', -10, 5), now)).toBe(false);
    expect(isSettled(p('expired', -10, -1), now)).toBe(true);
    for (const s of ['confirmed', 'canceled', 'rejected']) expect(isSettled(p(s), now)).toBe(true);
  });
});
