/**
 * Forwarder apps (and some phones' "copy text") join an SMS's lines with spaces. The parsers read
 * line by line, so a one-line body is cut back into fields: before every label that starts a field
 * (`مانده:`, `حساب1234`, `واریز 2,500,000`), before a signed amount and before a date. When the
 * text came out in visual order with each value before its label (`18,893,140 :مانده`), the pairs
 * are turned back into `label:value`.
 */
const LABEL = String.raw`(?:به|از|مانده|موجودی|حساب|کارت|مبلغ|واریز|برداشت|خرید|انتقالی|انتقال|پایانه فروش|پایا|ساتنا|اصلاحیه|سود|قبض|پرداخت|کارمزد|تاریخ|ساعت|زمان|بابت|شماره پیگیری|کد پیگیری|پیگیری|رهگیری)`;
// A label that opens a field: followed by a colon, or by its value (digits, a sign or a masked card).
const FIELD_START = new RegExp(String.raw`\s+(?<!(?:به|از|مبلغ|شماره|کد|با)\s+)(?=${LABEL}\s*(?:\(\S*\)\s*)?(?::|[+-]?\s*\d|\*))`, 'g');
const SIGNED_START = /\s+(?=[+-]\d)/g;
const DATE_START = /\s+(?=\d{2,4}\/\d{1,2}(?:\/\d{1,2})?[ _-]?\d{0,2}:?)(?<![:,]\s*)/g;
// Keshavarzi's `0407151402` / `040715-14:02` stamp must stand on its own line to be read.
const COMPACT_STAMP = /\s+(\d{6}(?:-\d{2}:\d{2}|\d{4}))(?=\s|$)/g;
const DOTTED_ACCOUNT_END = /(?<=^|\s)(\d{2,4}(?:\.\d{2,10}){2,3})\s+/g;
const VALUE_THEN_LABEL = new RegExp(String.raw`^(.*?)\s*([+-]?\s*[\d,.*\-/]+\s*[+-]?(?:\s*(?:ریال|تومان))?)\s*:\s*(${LABEL})$`);
const REVERSED_PAIR_END = new RegExp(String.raw`(:\s*${LABEL})\s+`, 'g');

function reversed(line: string): boolean {
  const forward = (line.match(new RegExp(String.raw`${LABEL}\s*:`, 'g')) ?? []).length;
  const backward = (line.match(new RegExp(String.raw`:\s*${LABEL}`, 'g')) ?? []).length;
  return backward > forward;
}

export function unflatten(raw: string): string {
  if (raw.includes('\n') || raw.length < 12) return raw;
  // Some apps join the lines with a bar: `واریز: +5,000,000 | مانده: 12,500,000 | 1404/07/15 14:02`.
  if (raw.includes('|')) return raw.split('|').map((l) => l.trim()).filter((l) => l.length > 0).join('\n');
  const body = raw;
  if (reversed(body)) {
    return body
      .replace(REVERSED_PAIR_END, '$1\n')
      .split('\n')
      .map((part) => {
        const m = VALUE_THEN_LABEL.exec(part.trim());
        const [, prefix, value, label] = m ?? [];
        if (value === undefined || label === undefined) return part.trim();
        return `${prefix ? `${prefix}\n` : ''}${label}:${value.trim()}`;
      })
      .join('\n');
  }
  return body
    .replace(FIELD_START, '\n')
    .replace(SIGNED_START, '\n')
    .replace(DATE_START, '\n')
    .replace(DOTTED_ACCOUNT_END, '$1\n')
    .replace(COMPACT_STAMP, '\n$1\n')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .join('\n');
}
