import { describe, expect, it } from 'vitest';
import { fieldsOf } from '../../src/domain/exports/columns.js';
import { csvField, csvOfRows, neutralizeFormula } from '../../src/domain/exports/csv.js';

describe('CSV fields', () => {
  it('quotes a field holding a comma, a quote or a line break, doubling quotes (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\r\nbreak')).toBe('"line\r\nbreak"');
    expect(csvField('lf\nonly')).toBe('"lf\nonly"');
    expect(csvField(' padded ')).toBe('" padded "');
    expect(csvField('')).toBe('');
  });

  it('gives text that could start a formula a leading apostrophe', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(neutralizeFormula(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(neutralizeFormula('a=1')).toBe('a=1');
    expect(neutralizeFormula('سلام')).toBe('سلام');
  });

  it('defuses outside text only: amounts, codes and dates are left as they are', () => {
    const fields = fieldsOf([
      ['note', 'text'],
      ['amount', 'amount'],
      ['kind', 'code'],
      ['count', 'integer'],
      ['ok', 'boolean'],
      ['at', 'instant'],
    ]);
    const row = { note: '-refund, "manual"', amount: '-50000', kind: 'fee', count: 3, ok: true, at: new Date('2026-11-25T11:02:05.250Z') };
    expect(csvOfRows(fields, [row, { note: null, amount: null, kind: null, count: null, ok: null, at: null }])).toBe(
      `"'-refund, ""manual""",-50000,fee,3,true,1405/09/04 14:32:05,2026-11-25T11:02:05.250Z\r\n,,,,,,\r\n`,
    );
  });
});
