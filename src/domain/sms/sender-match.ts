import { latinDigits } from '../validation.js';
import type { SmsParser } from './types.js';

// Marks a forwarder may wrap around a sender id (direction marks, zero-width joiners); never part of it.
const INVISIBLE = /[\u200C\u200D\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
// What separates the words or digit groups of one id as phones and forwarder apps write it.
const SEPARATORS = /[\s.\-_]/g;
const ASCII_ID = /^\+?[a-z0-9]+$/;

/**
 * The forms one sender id takes by the time a forwarder reports it. Phones and forwarder apps
 * write the same line as `+98700717`, `98700717`, `0098700717` or `700717`, and a mobile line as
 * `+98912…`, `0912…` or `912…`; letters come as `BankMellat`, `Bank Mellat` or `bank.mellat`.
 * Two senders are the same when these sets meet: only the country prefix (+98, 0098, 98) or one
 * trunk zero is forgiven, never a digit of the number itself (`00700701` is not `700701`).
 * An id is compared after Unicode compatibility normalisation (NFKC): one that NFKC changes
 * (the Kelvin sign `K`, full-width letters) or that is not then plain ASCII letters and digits
 * (Cyrillic look-alikes, brackets) has no forms, so it is the same as nothing.
 */
export function senderForms(raw: string): Set<string> {
  const forms = new Set<string>();
  const text = latinDigits(String(raw)).replace(INVISIBLE, '').trim();
  if (text.normalize('NFKC') !== text) return forms;
  const s = text.replace(SEPARATORS, '').toLowerCase();
  if (!ASCII_ID.test(s)) return forms;
  if (!/^\+?\d+$/.test(s)) {
    if (!s.startsWith('+')) forms.add(s);
    return forms;
  }
  const national = s.startsWith('+98') ? s.slice(3) : s.startsWith('0098') ? s.slice(4) : s.startsWith('+') ? null : s;
  if (national === null || national.length === 0) return forms;
  forms.add(national);
  if (national.startsWith('98') && national.length >= 8) forms.add(national.slice(2));
  if (national.startsWith('0') && !national.startsWith('00') && national.length >= 7) forms.add(national.slice(1));
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
