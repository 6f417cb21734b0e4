import { buildParsed, hintOf, namesABank } from './fields.js';
import { findBankTime } from './jalali.js';
import { accountHintFor, leadingAccount, readMovement } from './movement.js';
import type { SmsParser } from './types.js';

export type BankProfile = {
  bankCode: string;
  senders: readonly string[];
  senderName?: RegExp;
  /** Text that names this bank; a body naming it is this bank's whatever the sender. */
  mark: RegExp;
  /** A layout only this bank uses, for bodies that name no bank and come from an unknown sender. */
  shape?: (body: string) => boolean;
  /** Read `YYMMDDhhmm` stamps (off where such a line may be an account number). */
  compactDates?: boolean;
  /** A phrase this bank uses only for money in (Tejarat's `نوع تراکنش: انتقال به شتابی`); a minus sign or a withdrawal word still wins. */
  credit?: RegExp;
  /** The bank's compact layout opens with the bare account number (`300463586351` / `1,900,000+` / …): read it as the hint. */
  accountLine?: boolean;
};

/**
 * A parser for a bank whose SMS use the common Iranian layouts (label and amount, `مبلغ` line,
 * signed bare line, sentence). The bank is recognised by its sender, by its name in the body, or
 * by a layout only it uses; what the body says is read by the shared movement reader, so a
 * withdrawal, a password or a contradiction can never come out as a deposit.
 */
export function bankParser(profile: BankProfile): SmsParser {
  const parser: SmsParser = {
    bankCode: profile.bankCode,
    senders: profile.senders,
    mark: profile.mark,
    parse(body, receivedAt, context) {
      const named = profile.mark.test(body);
      const shaped = profile.shape !== undefined && !namesABank(body) && profile.shape(body);
      if (!named && !shaped && context?.viaSender !== true) return null;
      const m = readMovement(body);
      const credit = profile.credit !== undefined && profile.credit.test(body);
      const signals = { body, amount: m.amount, deposit: m.deposit || credit, withdrawal: m.withdrawal };
      const time = findBankTime(body, { compact: profile.compactDates === true, receivedAt });
      const account = profile.accountLine === true ? hintOf(leadingAccount(body) ?? undefined) : null;
      return buildParsed(profile.bankCode, signals, (d) => accountHintFor(body, d) ?? account, time);
    },
  };
  if (profile.senderName) parser.senderName = profile.senderName;
  return parser;
}
