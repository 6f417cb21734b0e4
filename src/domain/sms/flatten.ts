/**
 * Forwarder apps (and some phones' "copy text") join an SMS's lines with spaces. The parsers read
 * line by line, so a one-line body is cut back into fields: before every label that starts a field
 * (`مانده:`, `حساب1234`, `واریز 2,500,000`), before a signed amount and before a date. When the
 * text came out in visual order with each value before its label (`18,893,140 :مانده`), the pairs
 * are turned back into `label:value`.
 */
const LABEL = String.raw`(?:به|از|مانده|موجودی|حساب|کارت|مبلغ|واریز|برداشت|خرید|انتقالی|انتقال|پایانه فروش|پایا|ساتنا|اصلاحیه|سود|قبض|پرداخت|کارمزد|تاریخ|ساعت|زمان|بابت|شماره پیگیری|کد پیگیری|پیگیری|رهگیری|نوع تراکنش)`;
// A label that opens a field: followed by a colon, or by its value (digits, a sign or a masked card).
const FIELD_START = new RegExp(String.raw`\s+(?<!(?:به|از|مبلغ|شماره|کد|با)\s+)(?=${LABEL}\s*(?:\(\S*\)\s*)?(?::|[+-]?\s*\d|\*))`, 'g');
const SIGNED_START = /\s+(?=[+-]\d)/g;
const DATE_START = /\s+(?=\d{2,4}\/\d{1,2}(?:\/\d{1,2})?[ _-]?\d{0,2}:?)(?<![:,]\s*)/g;
// Keshavarzi's `0407151402` / `040715-14:02` stamp must stand on its own line to be read.
const COMPACT_STAMP = /\s+(\d{6}(?:-\d{2}:\d{2}|\d{4}))(?=\s|$)/g;
const DOTTED_ACCOUNT_END = /(?<=^|\s)(\d{2,4}(?:\.\d{2,10}){2,3})\s+/g;
// Compact layouts open with the bare account (`300463586351 1,900,000+ …`): it is a line of its own.
const LEADING_ACCOUNT = /^(\d{8,26})\s+(?=[+-]?\d)/;
const VALUE_THEN_LABEL = new RegExp(String.raw`^(.*?)\s*([+-]?\s*[\d,.*\-/]+\s*[+-]?(?:\s*(?:ریال|تومان))?)\s*:\s*(${LABEL})$`);
const REVERSED_PAIR_END = new RegExp(String.raw`(:\s*${LABEL})\s+`, 'g');

const FORWARD_PAIR = new RegExp(String.raw`${LABEL}\s*:`, 'g');

function forwardPairs(line: string): number {
  return (line.match(FORWARD_PAIR) ?? []).length;
}

function reversed(line: string): boolean {
  const backward = (line.match(new RegExp(String.raw`:\s*${LABEL}`, 'g')) ?? []).length;
  return backward > forwardPairs(line);
}

function split(body: string): string {
  return body
    .replace(FIELD_START, '\n')
    .replace(SIGNED_START, '\n')
    .replace(DATE_START, '\n')
    .replace(DOTTED_ACCOUNT_END, '$1\n')
    .replace(LEADING_ACCOUNT, '$1\n')
    .replace(COMPACT_STAMP, '\n$1\n')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .join('\n');
}

/**
 * A body flattened only in part keeps some line breaks (`بانک تجارت حساب: 0151… واریز: 12,000,000 ریال از طريق: شتاب` /
 * `مانده:` / `89,579,894 ریال 1405/06/19 13:30`): a line holding two or more `label:` fields is cut like a flat body.
 */
function splitJoinedLines(raw: string): string {
  return raw
    .split('\n')
    .map((line) => (forwardPairs(line) >= 2 ? split(line) : line))
    .join('\n');
}

export function unflatten(raw: string): string {
  if (raw.includes('\n')) return splitJoinedLines(raw);
  if (raw.length < 12) return raw;
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
  return split(body);
}
