import { blu } from './banks/blu.js';
import { keshavarzi } from './banks/keshavarzi.js';
import { mellat } from './banks/mellat.js';
import { melli } from './banks/melli.js';
import { parsian } from './banks/parsian.js';
import { pasargad } from './banks/pasargad.js';
import { refah } from './banks/refah.js';
import { saman } from './banks/saman.js';
import { normalizeSmsBody } from './normalize.js';
import type { ParsedSms, SmsParser } from './types.js';

/** Fallback order when the sender names no bank: the parsers with the most specific shapes go first. */
export const smsParsers: readonly SmsParser[] = [blu, parsian, saman, pasargad, keshavarzi, melli, refah, mellat];

// Bank SMS are a few hundred characters; anything far longer is not one, and regexes stay cheap.
const MAX_BODY_CHARS = 4096;

function orderFor(sender: string): SmsParser[] {
  const claims = (p: SmsParser) => p.senders.some((re) => re.test(sender));
  return [...smsParsers.filter(claims), ...smsParsers.filter((p) => !claims(p))];
}

/**
 * Reads a forwarded bank SMS. Never throws: a body no parser claims comes back as
 * `{ parsed: null }`, for the caller to keep as unparsed rather than lose.
 */
export function parseSms(sender: string, body: string, receivedAt: Date): { parsed: ParsedSms | null } {
  try {
    if (typeof body !== 'string' || body.length > MAX_BODY_CHARS) return { parsed: null };
    const normalized = normalizeSmsBody(body);
    const at = receivedAt instanceof Date && Number.isFinite(receivedAt.getTime()) ? receivedAt : undefined;
    for (const parser of orderFor(typeof sender === 'string' ? sender.trim() : '')) {
      const parsed = parser.parse(normalized, at);
      if (parsed) return { parsed };
    }
    return { parsed: null };
  } catch {
    return { parsed: null };
  }
}

/** The instant a deposit happened: the bank's own clock when the SMS carried one, else its arrival. */
export function effectiveTime(parsed: ParsedSms | null, receivedAt: Date): Date {
  return parsed?.bankTime ?? receivedAt;
}
