import { buildParsed, fieldsOf, findField, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import { accountHintFor, orMovement } from '../movement.js';
import type { Direction, SmsParser } from '../types.js';

const CREDIT = /^(?:واریز|سود|سود سپرده)$/;
const DEBIT = /^(?:برداشت|خرید|قبض|پرداخت|کارمزد)$/;
const MOVEMENT = /^(?:واریز|سود|سود سپرده|برداشت|خرید|قبض|پرداخت|کارمزد|انتقال|پایا|ساتنا|اصلاحیه|چک)$/;
const BANK_NAME = /^بانک ملت/m;
const OTP_PHRASE = /^رمز برداشت وجه از کارت شما/m;

/**
 * `حساب1234567890` / `واریز2,500,000` / `مانده21,250,000` / `04/07/15-08:42`, sometimes under
 * `بانک ملت` with colons, or the older `برداشت از حساب …` / `مبلغ : …` / `مستند : …` form. Interest is
 * credited in the same glued layout as `سود…`; rails (`پایا`, `ساتنا`) and corrections need a sign.
 * Glued layout and sender `Bank Mellat`: doxigo/muchToman MoneyTest.kt (a real withdrawal);
 * `بانک ملت` / `واریز به 1234567890` / `مبلغ:…` / `موجودی:…`: mvalipm/jibito TransactionParserTest.kt.
 */
export const mellat: SmsParser = {
  bankCode: 'mellat',
  // `Bank Mellat` (with the space) is the header real Mellat SMS carry (doxigo/muchToman Sms.kt, its Bank enum);
  // each spelling is listed, since senders compare exactly (docs/security.md).
  senders: ['+98700701', 'BankMellat', 'Bank Mellat', 'Mellat'],
  senderName: /mellat/,
  mark: BANK_NAME,
  parse(body, receivedAt, context) {
    const fields = fieldsOf(body);
    const movement = fields.find((f) => MOVEMENT.test(f.label) && leadingAmount(f.value) !== null);
    const movementAmount = movement ? leadingAmount(movement.value) : null;
    const bareShape = !namesABank(body) && fields[0]?.label === 'حساب' && movementAmount !== null && movementAmount.sign === null;
    if (!BANK_NAME.test(body) && !bareShape && !OTP_PHRASE.test(body) && context?.viaSender !== true) return null;
    const sum = findField(fields, /^مبلغ$/);
    const amount = movementAmount ?? (sum ? leadingAmount(sum.value) : null);
    const words = movement?.label ?? body;
    const signals = orMovement({
      body,
      amount,
      deposit: movement ? CREDIT.test(movement.label) : /واریز/.test(body),
      withdrawal: movement ? DEBIT.test(movement.label) : /برداشت|خرید/.test(words),
    });
    const account = findField(fields, /حساب$/)?.value;
    const hint = (direction: Direction) => hintOf(account) ?? accountHintFor(body, direction);
    return buildParsed('mellat', signals, hint, findBankTime(body, { receivedAt }));
  },
};
