import { describe, expect, it } from 'vitest';
import { normalizeSmsBody, parseRialAmount } from '../../src/domain/sms/normalize.js';

describe('normalizeSmsBody', () => {
  it('turns Persian and Arabic-Indic digits into Latin ones', () => {
    expect(normalizeSmsBody('۰۱۲۳۴۵۶۷۸۹ ٠١٢٣٤٥٦٧٨٩')).toBe('0123456789 0123456789');
  });

  it('turns Arabic kaf and yeh into their Persian forms', () => {
    expect(normalizeSmsBody('بانك ملي واريز')).toBe('بانک ملی واریز');
  });

  it('reads the Arabic thousands separator and an Arabic comma between digit groups as commas', () => {
    expect(normalizeSmsBody('۱٬۲۵۰٬۰۰۰ و 3،500،000 و سلام، دنیا')).toBe('1,250,000 و 3,500,000 و سلام، دنیا');
  });

  it('drops direction marks and zero-width characters but keeps a ZWNJ inside a word', () => {
    expect(normalizeSmsBody('\u200F\u202Bمی\u200Cشود\u202C \u200B\u2066123\u2069\u200C')).toBe('می\u200Cشود 123');
  });

  it('makes CRLF lines into trimmed LF lines without blank ones', () => {
    expect(normalizeSmsBody('  a \r\n\r\n\tb\u00A0 c \rd')).toBe('a\nb c\nd');
  });
});

describe('parseRialAmount', () => {
  it.each([
    ['2,500,000', 2_500_000n],
    ['+850,000', 850_000n],
    ['5,000+', 5_000n],
    ['-1,200', 1_200n],
    ['۸٬۲۰۰٬۰۰۰ ریال', 8_200_000n],
    ['30000000ريال', 30_000_000n],
  ])('reads %s', (input, expected) => {
    expect(parseRialAmount(input)).toBe(expected);
  });

  it.each(['', 'abc', '1,00', '12,34,567', '1404/07/15'])('refuses %j', (input) => {
    expect(parseRialAmount(input)).toBeNull();
  });
});
