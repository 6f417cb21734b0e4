import { buildParsed, fieldsOf, findField, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import type { SmsParser } from '../types.js';

const MOVEMENT = /^(?:واریز|برداشت|خرید)$/;
const BANK_NAME = /^بانک ملت/m;
const OTP_PHRASE = /^رمز برداشت وجه از کارت شما/m;

/**
 * `حساب1234567890` / `واریز2,500,000` / `مانده21,250,000` / `04/07/15-08:42`, sometimes under
 * `بانک ملت` with colons, or the older `برداشت از حساب …` / `مبلغ : …` / `مستند : …` form.
 */
export const mellat: SmsParser = {
  bankCode: 'mellat',
  senders: [/mellat/i, /^\+98700(?!717)\d*$/],
  parse(body, receivedAt) {
    const fields = fieldsOf(body);
    const movement = findField(fields, MOVEMENT);
    const movementAmount = movement ? leadingAmount(movement.value) : null;
    const bareShape = !namesABank(body) && fields[0]?.label === 'حساب' && movementAmount !== null && movementAmount.sign === null;
    if (!BANK_NAME.test(body) && !bareShape && !OTP_PHRASE.test(body)) return null;
    const sum = findField(fields, /^مبلغ$/);
    const amount = movementAmount ?? (sum ? leadingAmount(sum.value) : null);
    const words = movement?.label ?? body;
    const signals = {
      body,
      amount,
      deposit: /واریز/.test(words),
      withdrawal: /برداشت|خرید/.test(words),
    };
    const account = findField(fields, /حساب$/)?.value;
    return buildParsed('mellat', signals, hintOf(account), findBankTime(body, { receivedAt }));
  },
};
