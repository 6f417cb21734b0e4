import { describe, expect, it } from 'vitest';
import { blu } from '../../src/domain/sms/banks/blu.js';
import { keshavarzi } from '../../src/domain/sms/banks/keshavarzi.js';
import { mellat } from '../../src/domain/sms/banks/mellat.js';
import { melli } from '../../src/domain/sms/banks/melli.js';
import { parsian } from '../../src/domain/sms/banks/parsian.js';
import { pasargad } from '../../src/domain/sms/banks/pasargad.js';
import { refah } from '../../src/domain/sms/banks/refah.js';
import { saman } from '../../src/domain/sms/banks/saman.js';
import { normalizeSmsBody } from '../../src/domain/sms/normalize.js';
import { effectiveTime, parseSms } from '../../src/domain/sms/registry.js';
import type { SmsParser } from '../../src/domain/sms/types.js';
import { fixturesByBank } from './fixtures/index.js';
import { DEFAULT_RECEIVED_AT } from './fixtures/types.js';
import { toPlain } from './helpers.js';

const parsers: Record<string, SmsParser> = { mellat, pasargad, parsian, saman, keshavarzi, refah, blu, melli };
const UNKNOWN_SENDER = '+989121234567';

describe.each(Object.entries(fixturesByBank))('%s fixtures', (bankCode, fixtures) => {
  const receivedAt = (iso?: string) => new Date(iso ?? DEFAULT_RECEIVED_AT);

  it.each(fixtures.map((f) => [f.name, f] as const))('%s: reads as expected through the registry', (_, f) => {
    expect(toPlain(parseSms(f.sender, f.body, receivedAt(f.receivedAt)).parsed)).toEqual(f.expected);
  });

  it.each(fixtures.map((f) => [f.name, f] as const))('%s: reads the same from an unknown sender', (_, f) => {
    expect(toPlain(parseSms(UNKNOWN_SENDER, f.body, receivedAt(f.receivedAt)).parsed)).toEqual(f.expected);
  });

  it.each(fixtures.filter((f) => f.expected !== null).map((f) => [f.name, f] as const))(
    '%s: is claimed by its own parser',
    (_, f) => {
      const parser = parsers[bankCode];
      expect(parser?.bankCode).toBe(bankCode);
      expect(toPlain(parser?.parse(normalizeSmsBody(f.body), receivedAt(f.receivedAt)) ?? null)).toEqual(f.expected);
    },
  );

  it('covers deposits, a withdrawal, a password and a non-movement notice', () => {
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
    ['a bank this gateway does not read', 'بانک سپه\nواریز:250,000ریال\nحساب:49302749612\nمانده:59,719,997\n2/23-20:43'],
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
