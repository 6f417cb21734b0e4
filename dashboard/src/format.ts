import { TEHRAN } from './tehran.js';

/** Persian numbers, Jalali dates in Tehran time, amounts in toman or rials. */

const FA_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
const GROUP = '٬';

export function faDigits(text: string | number): string {
  return String(text).replace(/[0-9]/g, (d) => FA_DIGITS[Number(d)] ?? d);
}

/** Persian and Arabic-Indic digits read as Latin ones (what the API stores). */
export function latinDigits(text: string): string {
  return text.replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0)).replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660));
}

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A whole number of digits (BigInt-safe), grouped, in Persian digits. */
export function faNumber(value: string | number | bigint): string {
  const text = String(value);
  const negative = text.startsWith('-');
  const digits = negative ? text.slice(1) : text;
  return (negative ? '−' : '') + faDigits(group(digits)).replace(/,/g, GROUP);
}

export type Unit = 'toman' | 'rial';

/** Rials as the chosen unit: a toman amount keeps a tenth when the rials are not a multiple of 10. */
export function formatAmount(rials: string, unit: Unit): string {
  if (unit === 'rial') return `${faNumber(rials)} ریال`;
  const value = BigInt(rials);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / 10n;
  const tenth = abs % 10n;
  const text = faNumber(whole.toString()) + (tenth === 0n ? '' : `٫${faDigits(tenth.toString())}`);
  return `${negative ? '−' : ''}${text} تومان`;
}

/**
 * What the user typed in the chosen unit, as rials (digits), or null when it is no amount. Toman may
 * carry one tenth (`۱٬۲۳۴٫۵`, as formatAmount shows 12,345 rials); rials are whole.
 */
export function parseAmount(text: string, unit: Unit): string | null {
  const clean = latinDigits(text).replace(/[,٬\s]/g, '');
  if (unit === 'toman') {
    const m = /^(\d+)(?:[.٫](\d))?$/.exec(clean);
    return m ? (BigInt(m[1] ?? '0') * 10n + BigInt(m[2] ?? '0')).toString() : null;
  }
  return /^\d+$/.test(clean) ? BigInt(clean).toString() : null;
}

/** Rials (digits) as an input's text in the chosen unit, Persian digits, no grouping; '' for none. */
export function amountInput(rials: string | null | undefined, unit: Unit): string {
  if (!rials || !/^\d+$/.test(rials)) return rials ?? '';
  if (unit === 'rial') return faDigits(rials);
  const value = BigInt(rials);
  const tenth = value % 10n;
  return faDigits((value / 10n).toString()) + (tenth === 0n ? '' : `٫${faDigits(tenth.toString())}`);
}

const dateTimeFormat = new Intl.DateTimeFormat('fa-IR-u-ca-persian-nu-arabext', {
  timeZone: TEHRAN,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** «۱۴۰۵/۰۹/۰۸ ساعت ۰۱:۱۹»: the Jalali date and the Tehran time, joined by a word (never Intl's Latin comma). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const parts = Object.fromEntries(dateTimeFormat.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return faDigits(`${parts.year}/${parts.month}/${parts.day} ساعت ${parts.hour}:${parts.minute}`).replace(/\u200e|\u200f/g, '');
}

const relative = new Intl.RelativeTimeFormat('fa-IR', { numeric: 'auto' });

/** "۳ دقیقه پیش": for the last time a phone was seen. */
export function formatAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'هرگز';
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative.format(seconds, 'second');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86400), 'day');
}

export function formatPercent(share: number | null | undefined): string {
  return share == null ? '—' : new Intl.NumberFormat('fa-IR', { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/** A card number in groups of four, left to right even in an RTL page (the element has dir="ltr"). */
export function groupCard(card: string): string {
  return card.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** A duration given in seconds, in words: «۵ ثانیه», «۱۵ دقیقه», «۱ دقیقه و ۳۰ ثانیه», «۲ ساعت». */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const parts: string[] = [];
  if (hours) parts.push(`${faNumber(hours)} ساعت`);
  if (minutes) parts.push(`${faNumber(minutes)} دقیقه`);
  if (rest || parts.length === 0) parts.push(`${faNumber(rest)} ثانیه`);
  return parts.join(' و ');
}
