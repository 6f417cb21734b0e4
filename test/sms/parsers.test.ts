import { describe, expect, it } from 'vitest';
import { unflatten } from '../../src/domain/sms/flatten.js';
import { normalizeSmsBody } from '../../src/domain/sms/normalize.js';
import { effectiveTime, parseSms, smsParsers } from '../../src/domain/sms/registry.js';
import type { SmsParser } from '../../src/domain/sms/types.js';
import { fixturesByBank } from './fixtures/index.js';
import { DEFAULT_RECEIVED_AT } from './fixtures/types.js';
import { expectedFor, toPlain } from './helpers.js';

const parsers: Record<string, SmsParser> = Object.fromEntries(smsParsers.map((p) => [p.bankCode, p]));
const UNKNOWN_SENDER = '+989121234567';

describe.each(Object.entries(fixturesByBank))('%s fixtures', (bankCode, fixtures) => {
  const receivedAt = (iso?: string) => new Date(iso ?? DEFAULT_RECEIVED_AT);

  it.each(fixtures.map((f) => [f.name, f] as const))('%s: reads as expected through the registry', (_, f) => {
    const actual = toPlain(parseSms(f.sender, f.body, receivedAt(f.receivedAt)).parsed);
    expect(actual).toEqual(expectedFor(f.expected, actual));
  });

  it.each(fixtures.filter((f) => !f.senderOnly).map((f) => [f.name, f] as const))('%s: reads the same from an unknown sender', (_, f) => {
    const actual = toPlain(parseSms(UNKNOWN_SENDER, f.body, receivedAt(f.receivedAt)).parsed);
    expect(actual).toEqual(expectedFor(f.expected, actual));
  });

  it.each(fixtures.filter((f) => f.senderOnly).map((f) => [f.name, f] as const))(
    '%s: from an unknown sender keeps its amount and never gains a deposit',
    (_, f) => {
      const parsed = parseSms(UNKNOWN_SENDER, f.body, receivedAt(f.receivedAt)).parsed;
      if (f.expected?.direction === 'deposit') {
        expect(parsed === null || parsed.amount?.toString() === f.expected.amount).toBe(true);
      } else {
        expect(parsed?.direction).not.toBe('deposit');
      }
    },
  );

  it.each(fixtures.filter((f) => f.expected !== null).map((f) => [f.name, f] as const))(
    '%s: is claimed by its own parser',
    (_, f) => {
      const parser = parsers[bankCode];
      expect(parser?.bankCode).toBe(bankCode);
      const context = { viaSender: f.senderOnly === true };
      const actual = toPlain(parser?.parse(unflatten(normalizeSmsBody(f.body)), receivedAt(f.receivedAt), context) ?? null);
      expect(actual).toEqual(expectedFor(f.expected, actual));
    },
  );

  it('every fixture names where its shape comes from', () => {
    expect(fixtures.filter((f) => !f.source).map((f) => f.name)).toEqual([]);
  });

  it('covers deposits, a withdrawal, a password and a non-movement notice', () => {
    // The generic reader reports movements only; passwords and notices from unknown banks stay unparsed.
    if (bankCode === 'unknown') return;
    const directions = fixtures.map((f) => f.expected?.direction ?? null);
    expect(directions.filter((d) => d === 'deposit').length).toBeGreaterThanOrEqual(3);
    expect(directions).toContain('withdrawal');
    expect(directions).toContain('otp');
    expect(directions.some((d) => d === 'balance' || d === 'other' || d === null)).toBe(true);
  });
});

describe('parseSms', () => {
  const at = new Date(DEFAULT_RECEIVED_AT);

  it.each([
    ['a chat message', 'سلام، فردا جلسه ساعت 10:00 است'],
    ['an English one-time code', 'Your verification code is 482913'],
    ['an empty body', ''],
    ['only whitespace and marks', ' \u200F\r\n\t\u202B '],
    ['a bank name with nothing but a login notice', 'بانک سپه\nورود به اینترنت بانک\n1405/3/22\n21:00'.replace('بانک سپه\n', '')],
    ['an advert with an amount', 'تخفیف ویژه! خرید بالای 500,000 ریال با ارسال رایگان'],
  ])('returns null for %s', (_, body) => {
    expect(parseSms(UNKNOWN_SENDER, body, at).parsed).toBeNull();
  });

  it('returns null instead of throwing for a body that is not a string', () => {
    expect(parseSms(UNKNOWN_SENDER, undefined as unknown as string, at).parsed).toBeNull();
  });

  it('leaves a year-less date unread when the arrival time is not a real date', () => {
    const body = 'بانک ملی ایران\nانتقال:2,000,000+\nحساب:24000\nمانده:18,893,140\n0715-14:02';
    const { parsed } = parseSms('+98700717', body, new Date(Number.NaN));
    expect(parsed?.direction).toBe('deposit');
    expect(parsed?.bankTime).toBeNull();
  });

  it('never calls a body that mentions a password a deposit', () => {
    const body = 'بانک ملی ایران\nواریز:+5,000,000\nحساب:24000\nرمز: 1234';
    expect(parseSms('+98700717', body, at).parsed?.direction).toBe('otp');
  });

  it.each([
    ['an announced credit', 'بانک ملت\nسود سپرده شما به مبلغ 1,000,000 ریال فردا به حساب شما واریز خواهد شد\nمانده: 5,000,000'],
    ['a failed transfer', 'بانک ملی ایران\nواریز:+5,000,000\nحساب:24000\nمانده:1,000\nانجام نشد'],
    ['an outgoing card transfer receipt', 'بانک ملت\nانتقال وجه\nاز کارت 6104****1234\nبه کارت 6037****5678\nمبلغ: 5,000,000 ریال\nمانده: 1,000,000 ریال'],
    ['a fee', 'بانک سپه\nکارمزد پیامک\nمبلغ: 39,000\nمانده: 1,000,000'],
  ])('never calls %s a deposit', (_, body) => {
    expect(parseSms('+989121234567', body, at).parsed?.direction).not.toBe('deposit');
  });

  it('marks what only the generic reader understood, and reads nothing it cannot stand behind', () => {
    const generic = parseSms('+989121234567', 'بانک حکمت ایرانیان\nواریز:4,000,000\nمانده:9,000,000', at).parsed;
    expect(generic).toMatchObject({ bankCode: 'unknown', generic: true, direction: 'deposit', amount: 4_000_000n, balance: 9_000_000n });
    expect(parseSms('+989121234567', 'واریز:4,000,000', at).parsed).toBeNull();
    expect(parseSms('+98700717', 'بانک ملی ایران\nانتقال:2,000,000+\nحساب:24000\nمانده:18,893,140', at).parsed?.generic).toBe(false);
  });

  it('treats a deposit word with a minus sign as a withdrawal', () => {
    const body = 'بانک ملی ایران\nواریز:5,000,000-\nحساب:24000\nمانده:1,000\n0715-14:02';
    expect(parseSms('+98700717', body, at).parsed?.direction).toBe('withdrawal');
  });
});

describe('effectiveTime', () => {
  const receivedAt = new Date('2025-10-07T12:00:00.000Z');

  it('prefers the bank clock', () => {
    const { parsed } = parseSms('bki', 'واریز4,000,000\nمانده12,500,000\nکارت8783*\n0407151402\nbki. ir', receivedAt);
    expect(effectiveTime(parsed, receivedAt).toISOString()).toBe('2025-10-07T10:32:00.000Z');
  });

  it('falls back to the arrival time when the SMS has no usable time', () => {
    const { parsed } = parseSms('Blu', 'بلو\nواریز پول\nسارا عزیز، 8,200,000 ریال به حساب شما نشست.', receivedAt);
    expect(parsed?.bankTime).toBeNull();
    expect(effectiveTime(parsed, receivedAt)).toBe(receivedAt);
  });
});
