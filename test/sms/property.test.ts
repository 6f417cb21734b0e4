import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeSmsBody } from '../../src/domain/sms/normalize.js';
import { parseSms } from '../../src/domain/sms/registry.js';
import { allFixtures } from './fixtures/index.js';

const receivedAt = new Date('2025-10-07T12:00:00.000Z');
const senders = fc.constantFrom('+98700717', 'BankMellat', 'B.Pasargad', 'Parsian', 'SB24', 'bki', 'Blu', '+989121234567', '');

// Every deposit a parser reports rests on one of these; text without them must never read as one.
const DEPOSIT_SIGNAL = /\+|واریز|نشست|انتقال/;
const hasDepositSignal = (body: string) => DEPOSIT_SIGNAL.test(normalizeSmsBody(body));

const junkToken = fc.oneof(
  fc.constantFrom(
    'حساب', 'مانده', 'برداشت', 'رمز', 'کارت', 'مبلغ', 'ریال', 'بابت', 'موجودی', 'خرید', 'از', 'به', 'پیگیری',
    'بانک ملت', 'بانک ملی ایران', 'بانک سامان', 'بانک رفاه', 'پارسیان', 'پاسارگاد', 'بلو', 'bki. ir', 'کشاورزی',
    ':', '-', '/', '_', '.', '*', ',', ' ', '\n', '\r\n', '\u200F', '\u202B', '٬', 'ك', 'ي', 'پل', 'پایا',
  ),
  fc.integer({ min: 0, max: 2_000_000_000 }).map((n) => n.toLocaleString('en-US')),
  fc.integer({ min: 0, max: 9_999_999_999 }).map(String),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const junk = fc.array(junkToken, { maxLength: 30 }).map((tokens) => tokens.join(''));

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(junkToken, fc.string({ unit: 'binary' })) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.nat({ max: 12 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.nat({ max: 40 }) }),
);

type Mutation = { kind: 'insert'; at: number; text: string } | { kind: 'delete' | 'duplicate'; at: number; length: number };

function mutate(body: string, steps: Mutation[]): string {
  return steps.reduce((s, step) => {
    const at = step.at % (s.length + 1);
    if (step.kind === 'insert') return s.slice(0, at) + step.text + s.slice(at);
    if (step.kind === 'delete') return s.slice(0, at) + s.slice(at + step.length);
    return s.slice(0, at) + s.slice(at, at + step.length) + s.slice(at);
  }, body);
}

const mutatedFixture = fc
  .tuple(fc.constantFrom(...allFixtures), fc.array(mutation, { minLength: 1, maxLength: 6 }))
  .map(([fixture, steps]) => ({ sender: fixture.sender, body: mutate(fixture.body, steps) }));

function wellFormed(sender: string, body: string): void {
  const { parsed } = parseSms(sender, body, receivedAt);
  if (parsed === null) return;
  expect(parsed.amount === null || parsed.amount >= 0n).toBe(true);
  expect(parsed.bankTime === null || Number.isFinite(parsed.bankTime.getTime())).toBe(true);
  expect(parsed.accountHint === null || /^\d+$/.test(parsed.accountHint)).toBe(true);
}

describe('parseSms on arbitrary input', () => {
  it('never throws and returns a well-formed result for random strings', () => {
    fc.assert(fc.property(senders, fc.string({ unit: 'binary', maxLength: 300 }), (s, b) => wellFormed(s, b)), { numRuns: 2000 });
  });

  it('never throws and returns a well-formed result for mutated fixture bodies', () => {
    fc.assert(fc.property(mutatedFixture, ({ sender, body }) => wellFormed(sender, body)), { numRuns: 3000 });
  });

  it('never reports a deposit for bank-flavoured junk without a deposit signal', () => {
    const signalFree = junk.filter((b) => !hasDepositSignal(b));
    fc.assert(
      fc.property(senders, signalFree, (s, b) => {
        expect(parseSms(s, b, receivedAt).parsed?.direction).not.toBe('deposit');
      }),
      { numRuns: 3000 },
    );
  });

  it('never reports a deposit for a mutated fixture that lost its deposit signals', () => {
    const stripped = mutatedFixture.map(({ sender, body }) => ({ sender, body: body.replace(/[+＋﹢]|واریز|واريز|نشست|انتقال/g, '') }));
    fc.assert(
      fc.property(stripped, ({ sender, body }) => {
        fc.pre(!hasDepositSignal(body));
        expect(parseSms(sender, body, receivedAt).parsed?.direction).not.toBe('deposit');
      }),
      { numRuns: 3000 },
    );
  });

  it('never reports a deposit once a password appears anywhere in the body', () => {
    const withPassword = fc
      .tuple(fc.constantFrom(...allFixtures), fc.nat())
      .map(([f, at]) => ({ sender: f.sender, body: `${f.body.slice(0, at % (f.body.length + 1))}\nرمز\n${f.body.slice(at % (f.body.length + 1))}` }));
    fc.assert(
      fc.property(withPassword, ({ sender, body }) => {
        expect(parseSms(sender, body, receivedAt).parsed?.direction).not.toBe('deposit');
      }),
      { numRuns: 1000 },
    );
  });

  it('reads a long adversarial body without throwing and without calling it a deposit', () => {
    const body = `${'1,'.repeat(1500)}\n${'بانک ملی ایران\nانتقال:'.repeat(100)}${'0'.repeat(1000)}`;
    expect(parseSms('+98700717', body.slice(0, 4000), receivedAt).parsed?.direction).not.toBe('deposit');
  });
});
