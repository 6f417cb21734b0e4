import { smsParsers } from './registry.js';
import { sameSender } from './sender-match.js';

export { sameSender, senderForms } from './sender-match.js';

/**
 * True when `sender` is one of the ids this bank is known to send from, or one the merchant vouched
 * for on the card (`extra`, its `smsSender`). Exact (`sameSender`): letters as written, case
 * included; a number with only its country prefix or trunk zero forgiven. A name pattern
 * (`…mellat…`) routes a message to a parser but never vouches for it.
 */
export function isKnownSender(bankCode: string, sender: string, extra: readonly string[] = []): boolean {
  const parser = smsParsers.find((p) => p.bankCode === bankCode);
  const known = [...(parser?.senders ?? []), ...extra];
  return known.some((k) => sameSender(k, sender));
}

/** Every bank's known sender ids, for a settings screen or a merchant's review. */
export function knownSenders(bankCode: string): readonly string[] {
  return smsParsers.find((p) => p.bankCode === bankCode)?.senders ?? [];
}

/**
 * The banks of a phone's cards that `sender` is a known sender of: one of the bank's own ids, or the
 * sender the merchant vouched for on that card (`smsSender`). The registry reads a body that names no
 * bank with these banks' parsers first (docs/decisions.md "Evidence before money").
 */
export function banksOfSender(cards: readonly { bankCode: string; smsSender?: string | null }[], sender: string): string[] {
  const banks = cards.filter((c) => isKnownSender(c.bankCode, sender, c.smsSender ? [c.smsSender] : [])).map((c) => c.bankCode);
  return [...new Set(banks)];
}

/**
 * True when `sender` is some bank's: a known id of any bank, or one the merchant vouched for on a
 * card (`vouched`, the cards' `smsSender`s). What is not (a person, a shop, a one-time-password
 * service) is what the retention job may blank (src/domain/retention/retention.ts).
 */
export function isSomeBanksSender(sender: string, vouched: readonly string[] = []): boolean {
  return smsParsers.some((p) => p.senders.some((k) => sameSender(k, sender))) || vouched.some((v) => sameSender(v, sender));
}
