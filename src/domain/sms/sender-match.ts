import { latinDigits } from '../validation.js';
import type { SmsParser } from './types.js';

/**
 * The forms one sender id takes by the time a forwarder reports it. Phones and forwarder apps
 * write the same line as `+98700717`, `98700717`, `0098700717` or `700717`, and a mobile line as
 * `+98912…`, `0912…` or `912…`; letters come as `BankMellat`, `Bank Mellat` or `bank.mellat`.
 * Two senders are the same when these sets meet: only a country prefix or a trunk zero is
 * forgiven, never a digit of the number itself.
 */
export function senderForms(raw: string): Set<string> {
  const s = latinDigits(String(raw)).toLowerCase().replace(/[\s.\-_()+\u200C\u200F\u200E]/g, '');
  const forms = new Set<string>();
  if (s.length === 0) return forms;
  if (!/^\d+$/.test(s)) {
    forms.add(s);
    return forms;
  }
  const noIntl = s.startsWith('00') ? s.slice(2) : s;
  forms.add(noIntl);
  if (noIntl.startsWith('98') && noIntl.length >= 8) forms.add(noIntl.slice(2));
  if (noIntl.startsWith('0') && noIntl.length >= 7) forms.add(noIntl.slice(1));
  return forms;
}

export function sameSender(a: string, b: string): boolean {
  const fa = senderForms(a);
  for (const f of senderForms(b)) if (fa.has(f)) return true;
  return false;
}

/** Letters only, for name patterns: `B.Pasargad` → `bpasargad`. */
export function senderLetters(raw: string): string {
  return String(raw).toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Does this parser's bank send from `sender`: a listed id, or a name its pattern accepts. */
export function claimsSender(parser: SmsParser, sender: string): boolean {
  if (parser.senders.some((known) => sameSender(known, sender))) return true;
  const letters = senderLetters(sender);
  return parser.senderName !== undefined && /[a-z]/.test(letters) && parser.senderName.test(letters);
}
