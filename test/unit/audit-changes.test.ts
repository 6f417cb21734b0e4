import { describe, expect, it } from 'vitest';
import { changesOf, createdValues, maskToLast4 } from '../../src/domain/audit/changes.js';

describe('audit changes', () => {
  it('lists only the touched fields whose value changed, from and to', () => {
    const before = { name: 'A', maxCode: 999, color: null };
    const after = { name: 'B', maxCode: 999, color: '#112233' };
    expect(changesOf(before, after, ['name', 'maxCode', 'color'])).toEqual({ name: { from: 'A', to: 'B' }, color: { from: null, to: '#112233' } });
  });

  it('is null when nothing changed', () => {
    expect(changesOf({ active: true }, { active: true }, ['active'])).toBeNull();
  });

  it('ignores fields the update did not touch', () => {
    expect(changesOf({ name: 'A', note: 'x' }, { name: 'A', note: 'y' }, ['name'])).toBeNull();
  });

  it('writes bigints as digit strings, dates as RFC 3339 and compares lists by value', () => {
    const at = new Date('2026-11-25T10:00:00.000Z');
    expect(changesOf({ feeMin: 1000n, suspendedAt: null, hosts: ['a.com'] }, { feeMin: 2000n, suspendedAt: at, hosts: ['a.com'] }, ['feeMin', 'suspendedAt', 'hosts'])).toEqual({
      feeMin: { from: '1000', to: '2000' },
      suspendedAt: { from: null, to: '2026-11-25T10:00:00.000Z' },
    });
  });

  it('masks card, account and sheba numbers to their last 4 digits', () => {
    expect(createdValues({ cardNumber: '6104337812345678', accountNumber: '12-34-5678', sheba: 'IR820540102680020817909002' }, ['cardNumber', 'accountNumber', 'sheba'])).toEqual({
      cardNumber: { from: null, to: '****5678' },
      accountNumber: { from: null, to: '****5678' },
      sheba: { from: null, to: '****9002' },
    });
    expect(maskToLast4('6104-3378-1234-5678')).toBe('****5678');
  });

  it('never holds a secret, hash, token or ciphertext, but keeps key prefixes', () => {
    const row = { keyHash: 'abc', tokenHash: 'def', secretCiphertext: 'ghi', token: 'dt_x', apiKey: 'sk_test_x', hookSecret: 'dh_x', keyPrefix: 'sk_test_Ab12' };
    expect(createdValues(row, Object.keys(row))).toEqual({ keyPrefix: { from: null, to: 'sk_test_Ab12' } });
  });
});
