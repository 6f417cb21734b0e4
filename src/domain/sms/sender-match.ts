import type { SmsParser } from './types.js';

// What may surround an id as a forwarder writes it: ASCII space, tab and line breaks only. Unicode's
// other "spaces" (U+00A0, U+1680, U+2028, U+FEFF…) are characters of the id, so an id carrying one
// is another sender (docs/security.md, "sender identity").
const AROUND = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;
// Never in a bank's id: control and format characters (zero-width joiners, direction marks, U+FEFF,
// U+2060), line and paragraph separators, and any space but the ASCII one.
const HIDDEN = /[\p{C}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;
const NUMBER = /^\+?[0-9]+$/;

/** A sender id without the ASCII whitespace around it; nothing else is removed. */
export function trimSender(raw: string): string {
  return raw.replace(AROUND, '');
}

/**
 * The forms one sender id stands for. Letters compare exactly as written, case included: only the
 * ASCII whitespace around the id goes. A number (ASCII digits, an optional leading `+`) reaches a
 * phone as `+98700717`, `0098700717`, `98700717` or `700717`, a mobile line as `+98912…` or `0912…`:
 * one country prefix (+98, 0098, 98) or one trunk zero is forgiven, never both and never a digit of
 * the number itself (`00700701` is not `700701`, `+989830009417` is not `30009417`). An id that NFKC
 * changes (the Kelvin sign, full-width letters, U+00A0) or that holds a hidden character has no forms:
 * it is the same as nothing. Two senders are the same when their forms meet (`sameSender`).
 */
export function senderForms(raw: string): Set<string> {
  const forms = new Set<string>();
  if (typeof raw !== 'string') return forms;
  const id = trimSender(raw);
  if (id === '' || id.normalize('NFKC') !== id || HIDDEN.test(id)) return forms;
  if (!NUMBER.test(id)) return forms.add(id);
  if (id.startsWith('+98')) return id.length > 3 ? forms.add(id.slice(3)) : forms;
  if (id.startsWith('0098')) return id.length > 4 ? forms.add(id.slice(4)) : forms;
  if (id.startsWith('+')) return forms; // another country's number is never an Iranian bank's
  forms.add(id);
  if (id.startsWith('98') && id.length >= 8) forms.add(id.slice(2));
  if (id.startsWith('0') && !id.startsWith('00') && id.length >= 7) forms.add(id.slice(1));
  return forms;
}

/** The one sender-identity rule: isKnownSender, banksOfSender and the parsers' routing all use it. */
export function sameSender(a: string, b: string): boolean {
  const fa = senderForms(a);
  for (const f of senderForms(b)) if (fa.has(f)) return true;
  return false;
}

/** Letters only, for name patterns: `B.Pasargad` → `bpasargad`. */
export function senderLetters(raw: string): string {
  return String(raw).toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Which parser reads a message first (which layout to expect): one of the bank's listed ids, or a
 * name its pattern accepts however spelled (`Bank-Mellat` is read as Mellat's layout). Routing only:
 * whether the bank sent it is `isKnownSender`'s exact rule, so a look-alike is read and then held as
 * `unknown_sender`, never trusted.
 */
export function claimsSender(parser: SmsParser, sender: string): boolean {
  if (parser.senders.some((known) => sameSender(known, sender))) return true;
  const letters = senderLetters(sender);
  return parser.senderName !== undefined && /[a-z]/.test(letters) && parser.senderName.test(letters);
}
