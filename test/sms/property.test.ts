import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeSmsBody } from '../../src/domain/sms/normalize.js';
import { parseSms, smsParsers } from '../../src/domain/sms/registry.js';
import { allFixtures } from './fixtures/index.js';

const receivedAt = new Date('2025-10-07T12:00:00.000Z');
const allSenders = [...new Set(smsParsers.flatMap((p) => p.senders))];
const senders = fc.constantFrom(...allSenders, 'BankMellat', 'B.Pasargad', 'Parsian', 'SB24', 'bki', 'Blu', '+989121234567', '');

// Every deposit a parser reports rests on one of these; text without them must never read as one.
const DEPOSIT_SIGNAL = /\+|واریز|نشست|انتقال|سود|بستانکار|به حساب شما/;
const hasDepositSignal = (body: string) => DEPOSIT_SIGNAL.test(normalizeSmsBody(body));

const junkToken = fc.oneof(
  fc.constantFrom(
    'حساب', 'مانده', 'برداشت', 'رمز', 'کارت', 'مبلغ', 'ریال', 'بابت', 'موجودی', 'خرید', 'از', 'به', 'پیگیری',
    'بانک ملت', 'بانک ملی ایران', 'بانک سامان', 'بانک رفاه', 'پارسیان', 'پاسارگاد', 'بلو', 'bki. ir', 'کشاورزی',
    'بانک تجارت', 'بانک سپه', 'بانک صادرات', 'رسالت', 'بانک خاورمیانه', 'پست بانک', 'بانک سینا', 'بانک شهر',
    'بانک آینده', 'مهر ایران', 'اقتصاد نوین', 'توسعه تعاون', 'بانک مسکن', 'بانک دی', 'کارآفرین', 'بانک سرمایه',
    'ایران زمین', 'گردشگری', 'قوامین', 'توسعه صادرات', 'ساتنا', 'اصلاحیه', 'خرید', 'کارمزد', 'قبض', 'پرداخت',
    '10.7488478.1', '777.888.20000275.1', '0715-14:02', '1404/07/15 14:02', '07/15_12:14',
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
    const stripped = mutatedFixture.map(({ sender, body }) => ({
      sender,
      body: body.replace(/[+＋﹢]|واریز|واريز|نشست|انتقال|سود|بستانکار|به حساب شما|به حساب شما/g, ''),
    }));
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

describe('every parser on its own', () => {
  const signalFreeJunk = junk.filter((b) => !hasDepositSignal(b));

  it.each(smsParsers.map((p) => [p.bankCode, p] as const))('%s: junk never throws and never reads as a deposit', (_, parser) => {
    fc.assert(
      fc.property(signalFreeJunk, fc.boolean(), (raw, viaSender) => {
        const parsed = parser.parse(normalizeSmsBody(raw), receivedAt, { viaSender });
        expect(parsed?.direction).not.toBe('deposit');
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.boolean(), (raw, viaSender) => {
        parser.parse(normalizeSmsBody(raw), receivedAt, { viaSender });
      }),
      { numRuns: 300 },
    );
  });
});

// Withdrawals and passwords as the banks write them, with every hazard a phone or forwarder adds.
const HEADERS = [
  'بانک ملی ایران', 'بانک ملت', 'بانک تجارت', 'بانک سپه', 'بانک صادرات ایران', 'بانک قرض الحسنه رسالت', 'بانک خاورمیانه',
  'پست بانک', 'بانک سینا', 'بانک شهر', 'بانک آینده', 'بانک قرض الحسنه مهر ایران', 'بانک اقتصاد نوین', 'بانک توسعه تعاون',
  'بانک مسکن', 'بانک دی', 'بانک کارآفرین', 'بانک سرمایه', 'بانک ایران زمین', '*بانک گردشگری*', 'بانک قوامین',
  'بانک توسعه صادرات ایران', '*پارسیان بانک ایرانیان*', 'بانک سامان', 'بانک رفاه', 'بانک پاسارگاد', 'بلو', '',
];
const money = fc.integer({ min: 1_000, max: 5_000_000_000 }).map((n) => n.toLocaleString('en-US'));
const WITHDRAWALS: ((a: string, b: string) => string)[] = [
  (a, b) => `برداشت:${a}\nحساب:0101234567\nمانده:${b}\n0715-14:02`,
  (a, b) => `حساب1234567890\nبرداشت${a}\nمانده${b}\n04/07/15-08:42`,
  (a, b) => `خرید:${a}-\nحساب:24000\nمانده:${b}\n0715-11:16`,
  (a, b) => `پایا:${a}-\nحساب:06006\nمانده:${b}\n0715-11:19`,
  (a, b) => `ساتنا:${a}-\nحساب:06006\nمانده:${b}\n0715-11:20`,
  (a, b) => `انتقال:${a}-\nحساب:06006\nمانده:${b}\n0715-11:21`,
  (a, b) => `10.7488478.1\n-${a}\n07/15_15:14\nمانده: ${b}`,
  (a, b) => `777.888.20000275.1\n${a}-\n07/15_09:10\nمانده: ${b}`,
  (a, b) => `برداشت وجه از خودپرداز\n-${a}\nمانده ${b}\n07/15\n15:39`,
  (a, b) => `برداشت از کارت: 1327\n-${a}\n1404/07/15\n20:15\nمانده: ${b} ریال`,
  (a, b) => `برداشت: 126-800-1026659-1\n-${a}ریال\nمانده:${b}ریال\n7/15-10:04`,
  (a, b) => `کارت\nبرداشت از: 2311.7007.1234567.1\nمبلغ: ${a} ریال\n04/07/15_18:48\nموجودی: ${b} ریال`,
  (a, b) => `مبلغ:-${a}\nمانده:${b}\nبابت :انتقال از کارت 6221****3057 به کارت 6037****1122 با شماره پیگیری 248126\n0404/07/15_14:30`,
  (a, b) => `برداشت مبلغ ${a} انتقال وجه\nاز 901-777-1234567-1\nمانده ${b}\n1404/7/14\n09:33:26`,
  (a, b) => `سارا عزیز، ${a} ریال از حساب شما پرید.\nموجودی: ${b} ریال\n10:47\n1404.07.15`,
  (a, b) => `مبلغ ${a} ریال از حساب شما برداشت شد. مانده: ${b} ریال`,
  (a, b) => `خرید${a}\nمانده${b}\n0407151229\nکارت8783*\nbki. ir`,
  (a, b) => `قبض:${a}-\nحساب:06006\nمانده:${b}\n0715-00:16`,
  (a, b) => `کارمزد پیامک\n-${a}\nمانده: ${b}`,
  (a, b) => `پرداخت گروهي\nحساب:20300012345\nمبلغ:${a}\nمانده:${b}\nزمان:1404/7/15`,
  (a, b) => `30101000968603\nمبلغ:${a}-\nمانده:${b}\n07/15\n14:49`,
  (a, b) => `300412000678\n${a}-\n1404/7/15-14:35\nمانده:${b}`,
  (a, b) => `انتقال: -${a} \nحساب:310000095083\nمانده:${b}\n0715-17:38`,
  (a, b) => `کارت: 5859****461234\nنوع تراکنش: خريد شتابي\nمبلغ: ${a} ريال\nمانده: ${b} ريال\n1404/07/15 - 12:23`,
  (a, b) => `حساب: 0151000084019 برداشت: ${a} ریال از طريق: شتاب\nمانده:\n${b} ریال 1404/07/15 13:30`,
  (a, b) => `${a}- :انتقال 83008 :حساب ${b} :مانده 0715-20:40`,
];
const OTPS: ((a: string) => string)[] = [
  (a) => `رمز پویا: 482913\nمبلغ: ${a} ریال\nاعتبار: 2 دقیقه`,
  (a) => `انتقال به کارت 6037991234567890\nمبلغ:${a} ریال\nرمز:552211`,
  (a) => `انتقال وجه پایا عادی\n3120001234567\nبه: IR120170000000123456789001\nمبلغ ${a} ريال\nرمز: 507289\nزمان اعتبار 14:51:16`,
  (a) => `محرمانه\nخرید\nفروشگاه\n${a}\nرمز:59864\n1404/07/15-18:31:06`,
  (a) => `واریز به کارت 6037991234567890\nمبلغ:+${a}\nرمز یکبار مصرف: 12345`,
  (a) => `بفرمایید رمز پویا\nخرید\nازکی\nمبلغ: ${a} ریال\nرمز: 806534\n22:26`,
  (a) => `رمز دوم پویا\n Code = 756042\nمبلغ ${a}\nاعتبار تا 11:14:46 1404/7/15`,
  (a) => `انتقال به\n603799*4741\nمبلغ  ${a}\nرمز:  93022172`,
  (a) => `شارژ \n111*2222 \nمبلغ ${a} \nرمز 11112222 \nتاریخ 1404/07/15 20:32:28`,
];

const toPersian = (s: string) => s.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)] ?? d).replace(/,/g, '٬');
const hazard = fc.constantFrom(
  (s: string) => s,
  toPersian,
  (s: string) => s.replace(/ی/g, 'ي').replace(/ک/g, 'ك'),
  (s: string) => s.replace(/\n/g, '\r\n'),
  (s: string) => s.replace(/\n/g, ' '),
  (s: string) => `\u200F${s.replace(/\n/g, '\n\u200F')}`,
);

describe('withdrawals and passwords built from the banks\' templates', () => {
  it('never read as deposits, from any sender, with any hazard', () => {
    const withdrawal = fc.tuple(fc.constantFrom(...HEADERS), fc.constantFrom(...WITHDRAWALS), money, money, hazard, senders);
    fc.assert(
      fc.property(withdrawal, ([header, template, a, b, spoil, sender]) => {
        const body = spoil(`${header ? `${header}\n` : ''}${template(a, b)}`);
        expect(parseSms(sender, body, receivedAt).parsed?.direction).not.toBe('deposit');
      }),
      { numRuns: 4000 },
    );
  });

  it('passwords are never deposits and, when read, are passwords', () => {
    const otp = fc.tuple(fc.constantFrom(...HEADERS), fc.constantFrom(...OTPS), money, hazard, senders);
    fc.assert(
      fc.property(otp, ([header, template, a, spoil, sender]) => {
        const parsed = parseSms(sender, spoil(`${header ? `${header}\n` : ''}${template(a)}`), receivedAt).parsed;
        expect(parsed === null || parsed.direction === 'otp').toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
