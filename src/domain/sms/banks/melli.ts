import { AMOUNT, buildParsed, fieldsOf, findField, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import { orMovement } from '../movement.js';
import type { Direction, SmsParser } from '../types.js';

const BANK_NAME = /بانک ملی/;
const CREDIT = 'واریز|سود';
const DEBIT = 'برداشت|قبض|خرید|پرداخت|کارمزد|پایانه فروش';
// Rails and corrections go both ways: only the sign after the amount says which.
const EITHER = 'انتقال|انتقالی|اصلاحیه|پایا|ساتنا|پل|شتاب|حواله|چک|انتقال خودپرداز';
const LABELS = `${CREDIT}|${DEBIT}|${EITHER}`;
const COLON_AMOUNT_LINE = new RegExp(String.raw`^(?:${LABELS})\s*:\s*[+-]?\s*(?:${AMOUNT})\s*[+-]?$`, 'm');
const MOVEMENT = new RegExp(String.raw`^(?:${LABELS})$`);
// Only `انتقال به` / `واریز به` say money arrived; a bare `به:` merely names an account.
const DEPOSIT_TO = /^(?:انتقال|واریز) به(?: کارت| حساب)?$/;
const TO = /^(?:(?:انتقال|واریز) )?به(?: کارت| حساب)?$/;
const FROM = /^(?:انتقال|برداشت)? ?از(?: کارت| حساب)?$/;

/**
 * `بانک ملی ایران` / `انتقال:2,000,000+` / `حساب:24000` / `مانده:…` / `0626-17:24`; a deposit may
 * instead say `واریز:` or name its target with `انتقال به:` beside a `مبلغ:` line. The same template
 * carries corrections (`اصلـاحیه:1,000,000+`, mvalipm/jibito AccountExtractorTest.kt), Paya and Satna
 * (`پایا:96,000,000-`, `ساتنا:50,000,000-`, a public TypeScript ingest test quoting production bodies)
 * and interest (`سود:…+`); on these only the sign says which way the money went.
 */
export const melli: SmsParser = {
  bankCode: 'melli',
  senders: ['+98700717', '+989830009417', 'BankMelli', 'Melli'],
  senderName: /melli|^bmi$/,
  mark: BANK_NAME,
  parse(body, receivedAt, context) {
    const colonShape = COLON_AMOUNT_LINE.test(body) && /^حساب\s*:/m.test(body);
    if (!BANK_NAME.test(body) && (!colonShape || namesABank(body)) && context?.viaSender !== true) return null;
    const fields = fieldsOf(body);
    const movement = fields.find((f) => MOVEMENT.test(f.label) && leadingAmount(f.value) !== null);
    const sum = findField(fields, /^مبلغ$/);
    const to = findField(fields, TO);
    const from = findField(fields, FROM);
    const label = movement?.label ?? '';
    const signals = orMovement({
      body,
      amount: movement ? leadingAmount(movement.value) : sum ? leadingAmount(sum.value) : null,
      deposit: new RegExp(`^(?:${CREDIT})$`).test(label) || findField(fields, DEPOSIT_TO) !== undefined,
      withdrawal: new RegExp(`^(?:${DEBIT})$`).test(label) || from !== undefined,
    });
    const account = findField(fields, /^حساب$/)?.value;
    const hint = (direction: Direction) => hintOf(direction === 'deposit' ? (to?.value ?? account) : (from?.value ?? account));
    return buildParsed('melli', signals, hint, findBankTime(body, { receivedAt }));
  },
};
