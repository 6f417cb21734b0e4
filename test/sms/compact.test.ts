import { describe, expect, it } from 'vitest';
import { parseSms } from '../../src/domain/sms/registry.js';
import { DEFAULT_RECEIVED_AT } from './fixtures/types.js';
import { toPlain } from './helpers.js';

/**
 * Compact layouts name no bank: an account line, the signed amount (`مبلغ:1,950,000+` or a bare `1,950,000+`), the
 * balance and a date. Parsian, Maskan and Mehr Iran send them (see their fixtures for the real shapes); whose they are
 * is said only by the sender, so each bank's parser must read them in full when its known sender, or the sender a
 * merchant vouched for on its card, sent them (docs/decisions.md "Evidence before money").
 */
const at = new Date(DEFAULT_RECEIVED_AT);
const KNOWN: Record<string, string> = { parsian: 'PARSIANBANK', maskan: 'Bank Maskan', mehriran: 'B.QMEHRIRAN' };

const LAYOUTS = [
  { name: 'labelled amount, sign after, date and time on their own lines', body: (sign: string) => `30101000751600\nمبلغ:1,950,000${sign}\nمانده:40,913,550\n07/15\n10:30`, time: '2025-10-07T07:00:00.000Z' },
  { name: 'labelled amount, sign before, dated line', body: (sign: string) => `30101000751600\nمبلغ:${sign}1,950,000\nمانده:40,913,550\n1404/07/15 10:30`, time: '2025-10-07T07:00:00.000Z' },
  { name: 'bare amount, sign after, balance last', body: (sign: string) => `30101000751600\n1,950,000${sign}\n1404/7/15-10:30\nمانده:40,913,550`, time: '2025-10-07T07:00:00.000Z' },
  { name: 'Persian digits and RTL marks', body: (sign: string) => `\u202A۳۰۱۰۱۰۰۰۷۵۱۶۰۰\u202C\n\u200Fمبلغ:۱٬۹۵۰٬۰۰۰${sign}\n\u200Fمانده:۴۰٬۹۱۳٬۵۵۰\n۰۷/۱۵\n۱۰:۳۰`, time: '2025-10-07T07:00:00.000Z' },
];

const reading = (bankCode: string, direction: string, time: string) => ({
  bankCode,
  direction,
  amount: '1950000',
  accountHint: '30101000751600',
  bankTime: time,
  reference: null,
  balance: '40913550',
  generic: false,
});

describe.each(Object.entries(KNOWN))('%s compact layouts', (bankCode, sender) => {
  it.each(LAYOUTS.map((l) => [l.name, l] as const))('%s: from its known sender, a plus is a deposit with account, balance and date', (_, layout) => {
    expect(toPlain(parseSms(sender, layout.body('+'), at).parsed)).toEqual(reading(bankCode, 'deposit', layout.time));
  });

  it.each(LAYOUTS.map((l) => [l.name, l] as const))('%s: from its known sender, a minus is a withdrawal', (_, layout) => {
    expect(toPlain(parseSms(sender, layout.body('-'), at).parsed)).toEqual(reading(bankCode, 'withdrawal', layout.time));
  });

  it.each(LAYOUTS.map((l) => [l.name, l] as const))('%s: from the sender vouched for on a card of the bank, its parser reads it first', (_, layout) => {
    expect(toPlain(parseSms('+98300012345', layout.body('+'), at, [bankCode]).parsed)).toEqual(reading(bankCode, 'deposit', layout.time));
  });

  it('without a sign, from its known sender, is never a deposit', () => {
    for (const layout of LAYOUTS) expect(parseSms(sender, layout.body(''), at).parsed?.direction).not.toBe('deposit');
  });
});

describe('the banks of the phone\'s cards come first', () => {
  it('given a sender listed for Parsian that a Maskan card on the phone vouches for, the Maskan parser reads the body', () => {
    const body = 'انتقال: +14,750,000\nحساب:310000095083\nمانده:14,896,107\n0715-17:38';
    expect(parseSms('+98300054', body, at).parsed?.bankCode).toBe('parsian');
    expect(parseSms('+98300054', body, at, ['maskan']).parsed).toMatchObject({ bankCode: 'maskan', direction: 'deposit', accountHint: '310000095083' });
  });

  it('given two banks of the phone for one sender, the first listed reads the body', () => {
    const body = '30101000751600\nمبلغ:1,950,000+\nمانده:40,913,550\n07/15\n10:30';
    expect(parseSms('+98300012345', body, at, ['mehriran', 'maskan']).parsed?.bankCode).toBe('mehriran');
    expect(parseSms('+98300012345', body, at, ['maskan', 'mehriran']).parsed?.bankCode).toBe('maskan');
  });
});
