import { AMOUNT, buildParsed, fieldsOf, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import { accountHintFor, orMovement } from '../movement.js';
import type { Direction, SmsParser } from '../types.js';

// branch.type.number.serial, e.g. 777.888.20000275.1; three dotted parts would also be a date.
const ACCOUNT_LINE = /^\d{2,4}\.\d{2,4}\.\d{5,}\.\d{1,3}$/m;
// A masked account on its own line (`77XXXXXX`), as some phones show it.
const MASKED_LINE = /^\d{2,6}[xX*]{4,}\d{0,4}$/m;
const SIGNED_LINE = new RegExp(String.raw`^(?:[+-]\s*(?:${AMOUNT})|(?:${AMOUNT})\s*[+-])$`);
const BANK_NAME = /پاسارگاد|پاسارکاد|یاسارگاد|یاسارکاد/;

/**
 * `777.888.20000275.1` / `+1,000,000,000` / `04/13_10:22` / `مانده: 12,000,000`: only the sign tells the direction.
 * Also a masked account and the time first (`77XXXXXX` / `8,150,000-` / `14:44_04/23`, mvalipm/jibito
 * TransactionParserTest.kt) and the labelled fee notice under `*بانك پاسارگاد*` with `برداشت از:` / `مبلغ:` /
 * `موجودي:` (doxigo/muchToman MoneyTest.kt, a real one, its name misspelt `ياساركاد` by the phone's font).
 */
export const pasargad: SmsParser = {
  bankCode: 'pasargad',
  senders: ['B.Pasargad', 'BankPasargad', 'Pasargad', 'wepod'],
  senderName: /pasargad|wepod/,
  mark: BANK_NAME,
  parse(body, receivedAt, context) {
    const account = ACCOUNT_LINE.exec(body)?.[0] ?? MASKED_LINE.exec(body)?.[0];
    const shaped = account !== undefined && !namesABank(body);
    if (!BANK_NAME.test(body) && !shaped && context?.viaSender !== true) return null;
    const movement = fieldsOf(body).find((f) => f.label === '' && SIGNED_LINE.test(f.value));
    const signals = orMovement({
      body,
      amount: movement ? leadingAmount(movement.value) : null,
      deposit: false,
      withdrawal: /برداشت|خرید/.test(body),
    });
    const hint = (direction: Direction) => hintOf(account) ?? accountHintFor(body, direction);
    return buildParsed('pasargad', signals, hint, findBankTime(body, { receivedAt }));
  },
};
