import { buildParsed, fieldsOf, findField, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import { accountHintFor, orMovement } from '../movement.js';
import type { Direction, SmsParser } from '../types.js';

const BANK_NAME = /بانک سامان/;
const MOVEMENT = /^(?:واریز|برداشت) ?مبلغ$/;

/**
 * `بانک سامان` / `واریز مبلغ 30,000,000ریال` / `به 299-100-1112233-1` / `مانده 41,000,000` / `1404/07/15 14:02`
 * (beigirad/AutoOTP; doxigo/muchToman MoneyTest.kt, real, with `برداشت مبلغ … ازخود پرداز` withdrawals).
 */
export const saman: SmsParser = {
  bankCode: 'saman',
  senders: ['SB24', '+989820000', 'SamanBank'],
  senderName: /^sb24$|saman/,
  mark: BANK_NAME,
  parse(body, receivedAt, context) {
    const fields = fieldsOf(body);
    const movement = findField(fields, MOVEMENT);
    const amount = movement ? leadingAmount(movement.value) : null;
    if (!BANK_NAME.test(body) && (amount === null || namesABank(body)) && context?.viaSender !== true) return null;
    const signals = orMovement({
      body,
      amount,
      deposit: movement?.label.startsWith('واریز') ?? false,
      withdrawal: movement?.label.startsWith('برداشت') ?? false,
    });
    const account = findField(fields, /حساب$/)?.value;
    const to = findField(fields, /^به$/)?.value ?? account;
    const from = findField(fields, /^از$/)?.value ?? account;
    const hint = (direction: Direction) => hintOf(direction === 'deposit' ? to : from) ?? accountHintFor(body, direction);
    return buildParsed('saman', signals, hint, findBankTime(body, { receivedAt }));
  },
};
