import { balanceOf, buildParsed, decideDirection } from '../fields.js';
import { findBankTime } from '../jalali.js';
import { accountHintFor, readMovement } from '../movement.js';
import type { SmsParser } from '../types.js';

// A credit the reader can stand behind without knowing the bank: a deposit word or a plus sign.
const CLEAR_CREDIT = /واریز|نشست|به حساب شما|سود/;

/**
 * The last reader, for SMS no bank parser claims (a bank with no parser yet, a new template from
 * an unknown sender). It reports a movement only when the body states an amount AND a balance,
 * and a deposit only on a clear credit; every result is marked `generic` with bankCode `unknown`,
 * so the caller keeps it for review and never auto-confirms a payment with it.
 */
export const generic: SmsParser = {
  bankCode: 'unknown',
  senders: [],
  parse(body, receivedAt) {
    const m = readMovement(body);
    if (m.amount === null || balanceOf(body) === null) return null;
    const credit = m.amount.sign === '+' || CLEAR_CREDIT.test(body);
    const signals = { body, amount: m.amount, deposit: m.deposit && credit, withdrawal: m.withdrawal };
    const direction = decideDirection(signals);
    if (direction !== 'deposit' && direction !== 'withdrawal') return null;
    const parsed = buildParsed('unknown', signals, (d) => accountHintFor(body, d), findBankTime(body, { receivedAt }));
    return { ...parsed, generic: true };
  },
};
