import { AMOUNT, buildParsed, fieldsOf, findField, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import type { Direction, SmsParser } from '../types.js';

const BANK_NAME = /بانک ملی/;
const LABELS = 'انتقال|انتقالی|واریز|برداشت|قبض|خرید|پرداخت';
const COLON_AMOUNT_LINE = new RegExp(String.raw`^(?:${LABELS})\s*:\s*[+-]?\s*(?:${AMOUNT})\s*[+-]?$`, 'm');
const MOVEMENT = new RegExp(String.raw`^(?:${LABELS})$`);
// Only `انتقال به` / `واریز به` say money arrived; a bare `به:` merely names an account.
const DEPOSIT_TO = /^(?:انتقال|واریز) به(?: کارت| حساب)?$/;
const TO = /^(?:(?:انتقال|واریز) )?به(?: کارت| حساب)?$/;
const FROM = /^(?:انتقال|برداشت)? ?از(?: کارت| حساب)?$/;

/**
 * `بانک ملی ایران` / `انتقال:2,000,000+` / `حساب:24000` / `مانده:…` / `0626-17:24`; a deposit may
 * instead say `واریز:` or name its target with `انتقال به:` beside a `مبلغ:` line.
 */
export const melli: SmsParser = {
  bankCode: 'melli',
  senders: [/^\+?98700717/, /melli|bmi/i],
  parse(body, receivedAt) {
    const colonShape = COLON_AMOUNT_LINE.test(body) && /^حساب\s*:/m.test(body);
    if (!BANK_NAME.test(body) && (!colonShape || namesABank(body))) return null;
    const fields = fieldsOf(body);
    const movement = fields.find((f) => MOVEMENT.test(f.label) && leadingAmount(f.value) !== null);
    const sum = findField(fields, /^مبلغ$/);
    const to = findField(fields, TO);
    const from = findField(fields, FROM);
    const signals = {
      body,
      amount: movement ? leadingAmount(movement.value) : sum ? leadingAmount(sum.value) : null,
      deposit: movement?.label === 'واریز' || findField(fields, DEPOSIT_TO) !== undefined,
      withdrawal: /^(?:برداشت|قبض|خرید|پرداخت)$/.test(movement?.label ?? '') || from !== undefined,
    };
    const account = findField(fields, /^حساب$/)?.value;
    const hint = (direction: Direction) => hintOf(direction === 'deposit' ? (to?.value ?? account) : (from?.value ?? account));
    return buildParsed('melli', signals, hint, findBankTime(body, { receivedAt }));
  },
};
