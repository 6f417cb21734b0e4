import { ayandeh } from './banks/ayandeh.js';
import { blu } from './banks/blu.js';
import { dey } from './banks/dey.js';
import { eghtesadnovin } from './banks/eghtesadnovin.js';
import { gardeshgari } from './banks/gardeshgari.js';
import { generic } from './banks/generic.js';
import { ghavamin } from './banks/ghavamin.js';
import { iranzamin } from './banks/iranzamin.js';
import { karafarin } from './banks/karafarin.js';
import { keshavarzi } from './banks/keshavarzi.js';
import { khavarmianeh } from './banks/khavarmianeh.js';
import { maskan } from './banks/maskan.js';
import { mehriran } from './banks/mehriran.js';
import { mellat } from './banks/mellat.js';
import { melli } from './banks/melli.js';
import { parsian } from './banks/parsian.js';
import { pasargad } from './banks/pasargad.js';
import { postbank } from './banks/postbank.js';
import { refah } from './banks/refah.js';
import { resalat } from './banks/resalat.js';
import { saderat } from './banks/saderat.js';
import { saman } from './banks/saman.js';
import { sarmayeh } from './banks/sarmayeh.js';
import { sepah } from './banks/sepah.js';
import { shahr } from './banks/shahr.js';
import { sina } from './banks/sina.js';
import { tejarat } from './banks/tejarat.js';
import { tosee } from './banks/tosee.js';
import { toseesaderat } from './banks/toseesaderat.js';
import { unflatten } from './flatten.js';
import { normalizeSmsBody } from './normalize.js';
import { claimsSender } from './sender-match.js';
import type { ParsedSms, SmsParser } from './types.js';

/**
 * Fallback order when neither the sender nor a bank name decides: the parsers with the most
 * specific shapes go first. Banks recognised only by name or sender follow; the generic reader is last.
 */
export const bankSmsParsers: readonly SmsParser[] = [
  blu, parsian, saman, pasargad, resalat, keshavarzi, melli, refah, mellat,
  tejarat, sepah, saderat, toseesaderat, khavarmianeh, postbank, sina, shahr, ayandeh, mehriran,
  eghtesadnovin, tosee, maskan, dey, karafarin, sarmayeh, iranzamin, gardeshgari, ghavamin,
];
export const smsParsers: readonly SmsParser[] = [...bankSmsParsers, generic];

// Bank SMS are a few hundred characters; anything far longer is not one, and regexes stay cheap.
const MAX_BODY_CHARS = 4096;

type Attempt = { parser: SmsParser; viaSender: boolean };

/**
 * Sender's bank first: the banks of the phone's cards this sender is known for (`senderBanks`, in
 * their order), then any other bank whose sender ids or name the sender matches; then banks the body
 * names, earliest named first; then shapes; then generic.
 */
function orderFor(sender: string, body: string, senderBanks: readonly string[]): Attempt[] {
  const ofCards = senderBanks.flatMap((code) => bankSmsParsers.filter((p) => p.bankCode === code));
  const claimed = [...new Set([...ofCards, ...bankSmsParsers.filter((p) => claimsSender(p, sender))])];
  const named = bankSmsParsers
    .filter((p) => !claimed.includes(p))
    .map((p) => ({ p, at: p.mark ? body.search(p.mark) : -1 }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((x) => x.p);
  const rest = bankSmsParsers.filter((p) => !claimed.includes(p) && !named.includes(p));
  return [
    ...claimed.map((parser) => ({ parser, viaSender: true })),
    ...[...named, ...rest, generic].map((parser) => ({ parser, viaSender: false })),
  ];
}

/**
 * Reads a forwarded bank SMS. `senderBanks` are the banks of the phone's cards that this sender is a
 * known sender of (`banksOfSender` in senders.ts: the bank's own ids or the card's vouched `smsSender`),
 * so a compact layout that names no bank is read by that bank's parser first. Never throws: a body no
 * parser claims comes back as `{ parsed: null }`, for the caller to keep as unparsed rather than lose.
 */
export function parseSms(sender: string, body: string, receivedAt: Date, senderBanks: readonly string[] = []): { parsed: ParsedSms | null } {
  try {
    if (typeof body !== 'string' || body.length > MAX_BODY_CHARS) return { parsed: null };
    const normalized = unflatten(normalizeSmsBody(body));
    const at = receivedAt instanceof Date && Number.isFinite(receivedAt.getTime()) ? receivedAt : undefined;
    for (const { parser, viaSender } of orderFor(typeof sender === 'string' ? sender.trim() : '', normalized, senderBanks)) {
      const parsed = parser.parse(normalized, at, { viaSender });
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
