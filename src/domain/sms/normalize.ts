import { latinDigits } from '../validation.js';
const BIDI_AND_INVISIBLE = /[\u00AD\u061C\u180E\u200B\u200D\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;
// ZWNJ is part of Persian spelling inside a word (می‌شود); anywhere else it only hides text from regexes.
const ZWNJ_OUTSIDE_WORD = /(?<!\p{L})\u200C|\u200C(?!\p{L})/gu;
const HORIZONTAL_SPACE = /[\t\v\f\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;
// Some phones send Arabic presentation forms (ﻭﺍﺭﻳﺰ); NFKC folds them, and ﷼ into ریال.
const PRESENTATION_FORMS = /[\uFB50-\uFDFF\uFE70-\uFEFE]/g;
// Tatweel only stretches a word on screen (اصـلاحیه); it hides the word from every regex.
const TATWEEL = /\u0640/g;

/** Folds the spellings banks and phones produce into one: Latin digits, Persian letters, `,` thousands, LF lines. */
export function normalizeSmsBody(raw: string): string {
  const text = latinDigits(
    raw
      .replace(/\r\n?|\u2028|\u2029/g, '\n')
      .replace(BIDI_AND_INVISIBLE, '')
      .replace(ZWNJ_OUTSIDE_WORD, '')
      .replace(PRESENTATION_FORMS, (c) => c.normalize('NFKC'))
      .replace(TATWEEL, ''),
  )
    .replace(/\u0643/g, '\u06A9')
    .replace(/[\u064A\u0649]/g, '\u06CC')
    .replace(/\u066C/g, ',')
    // Rial amounts have no fractions, so an Arabic comma or decimal mark before a 3-digit group is a thousands mark.
    .replace(/(?<=\d)[\u060C\u066B](?=\d{3}(?!\d))/g, ',')
    .replace(/[\u2212\uFE63\uFF0D\u2013\u2014]/g, '-')
    .replace(/[\uFF0B\uFE62]/g, '+')
    .replace(/\uFF1A/g, ':')
    .replace(HORIZONTAL_SPACE, ' ');
  return text
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

const RIAL_AMOUNT = /^[+-]?\s*(\d{1,3}(?:,\d{3})+|\d+)\s*[+-]?\s*(?:ریال)?$/;

/** The magnitude of a rial amount such as `2,500,000`, `+850,000` or `5,000+ ریال`; null when it is not one. */
export function parseRialAmount(s: string): bigint | null {
  const m = RIAL_AMOUNT.exec(normalizeSmsBody(s));
  return m?.[1] === undefined ? null : BigInt(m[1].replace(/,/g, ''));
}
