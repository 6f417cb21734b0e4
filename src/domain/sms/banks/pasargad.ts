import { AMOUNT, buildParsed, fieldsOf, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import type { SmsParser } from '../types.js';

// branch.type.number.serial, e.g. 777.888.20000275.1; three dotted parts would also be a date.
const ACCOUNT_LINE = /^\d{2,4}\.\d{2,4}\.\d{5,}\.\d{1,3}$/m;
const SIGNED_LINE = new RegExp(String.raw`^(?:[+-]\s*(?:${AMOUNT})|(?:${AMOUNT})\s*[+-])$`);
const BANK_NAME = /پاسارگاد/;

/** `777.888.20000275.1` / `+1,000,000,000` / `04/13_10:22` / `مانده: 12,000,000`: only the sign tells the direction. */
export const pasargad: SmsParser = {
  bankCode: 'pasargad',
  senders: [/pasargad/i, /wepod/i],
  parse(body, receivedAt) {
    const account = ACCOUNT_LINE.exec(body)?.[0];
    if (!BANK_NAME.test(body) && (account === undefined || namesABank(body))) return null;
    const movement = fieldsOf(body).find((f) => f.label === '' && SIGNED_LINE.test(f.value));
    const signals = {
      body,
      amount: movement ? leadingAmount(movement.value) : null,
      deposit: false,
      withdrawal: /برداشت|خرید/.test(body),
    };
    return buildParsed('pasargad', signals, hintOf(account), findBankTime(body, { receivedAt }));
  },
};
