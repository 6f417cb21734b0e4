import { AMOUNT, buildParsed, fieldsOf, findField, leadingAmount } from '../fields.js';
import { findBankTime } from '../jalali.js';
import type { SmsParser } from '../types.js';

const BANK_MARK = /^بلو(?:\s|$)|بلوبانک|blu\s*bank/im;
// Newer texts put a purpose between amount and verb: `4,218,500 ریال بابت خرید بسته اینترنت از حساب شما پرید`.
const FLOW = new RegExp(String.raw`(${AMOUNT})\s*(ریال|تومان)[^\n\d]{0,60}?(به حساب شما نشست|از حساب شما پرید)`);

/**
 * `بلو` / `واریز پول` / `سارا عزیز، 8,200,000 ریال به حساب شما نشست.` / `موجودی: …` / `14:02` / `1404.07.15`.
 * Blu names no account, so the hint is always null. Newer texts drop the `بلو` header and may put a
 * purpose before the verb (`آنلاین شدی` / `… ریال بابت خرید بسته اینترنت از حساب شما پرید .`), as in public
 * tracker tests quoting real messages.
 */
export const blu: SmsParser = {
  bankCode: 'blu',
  // Senders compare exactly (docs/security.md), so each spelling is listed: `Blu` and `blubank` head the real texts
  // of the public tracker tests above; `BLUBANK` is the Latin id public Android SMS readers list for Blu.
  senders: ['90000258', 'Blu', 'BluBank', 'blubank', 'BLUBANK'],
  senderName: /blu/,
  mark: BANK_MARK,
  parse(body, receivedAt, context) {
    const flow = FLOW.exec(body);
    if (!flow && !BANK_MARK.test(body) && context?.viaSender !== true) return null;
    const sum = findField(fieldsOf(body), /^مبلغ$/);
    const signals = {
      body,
      amount: flow ? leadingAmount(`${flow[1]} ${flow[2]}`) : sum ? leadingAmount(sum.value) : null,
      deposit: flow?.[3] === 'به حساب شما نشست',
      withdrawal: flow?.[3] === 'از حساب شما پرید',
    };
    return buildParsed('blu', signals, null, findBankTime(body, { receivedAt }));
  },
};
