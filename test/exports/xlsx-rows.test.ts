import { PassThrough } from 'node:stream';
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import utils from 'exceljs/lib/utils/utils.js';
import { describe, expect, it } from 'vitest';
import { fieldsOf, type ColumnSpec, type SqlRow } from '../../src/domain/exports/columns.js';
import { columnLetters, rowXml, xlsxValue } from '../../src/domain/exports/xlsx.js';

/**
 * The export writes its data rows' XML itself (src/domain/exports/xlsx.ts `rowXml`) instead of
 * through ExcelJS's Row and Cell objects. Here both write the same rows and the bytes must be equal,
 * so that an ExcelJS upgrade that writes rows otherwise fails here rather than in a merchant's Excel.
 */
const COLUMNS: ColumnSpec = [
  ['id', 'code'],
  ['orderId', 'text'],
  ['amount', 'amount'],
  ['count', 'integer'],
  ['late', 'boolean'],
  ['createdAt', 'instant'],
  ['note', 'text'],
];

const ROWS: SqlRow[] = [
  { id: 'pay_1', orderId: 'سفارش ۱۲', amount: '1200000', count: 3, late: false, createdAt: new Date('2026-11-23T21:30:00Z'), note: 'plain' },
  // Markup, quotes, characters XML 1.0 forbids, spaces at both ends, a would-be formula.
  { id: 'pay_2', orderId: ' <a&b> "x" \'y\' \u0001\u0008\u000b\u001f\u007f tab\there\nline ', amount: '99999999999999999999', count: 0, late: true, createdAt: null, note: '=SUM(A1:A2)' },
  // Empty first and last cells; an amount that is zero; a negative amount (the ledger's debits).
  { id: null, orderId: null, amount: '0', count: null, late: null, createdAt: new Date('2026-03-20T20:29:59Z'), note: null },
  { id: 'pay_4', orderId: '🙂 emoji and ZWNJ: می‌خواهم', amount: '-1500', count: 12, late: false, createdAt: new Date('2026-03-20T20:30:00Z'), note: '' },
  // Nothing at all: no row element (ExcelJS skips a row without values too).
  { id: null, orderId: null, amount: null, count: null, late: null, createdAt: null, note: null },
];

/** What ExcelJS's own row writer puts into the sheet's stream for `values`, row by row. */
function excelJsRowsXml(values: unknown[][]): string {
  const workbook = new WorkbookWriter({ stream: new PassThrough(), useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('s');
  const stream = (sheet as unknown as { stream: { write: (data: unknown) => unknown } }).stream;
  const written: string[] = [];
  const write = stream.write.bind(stream);
  stream.write = (data: unknown) => {
    if (typeof data === 'string') written.push(data);
    return write(data);
  };
  for (const row of values) sheet.addRow(row).commit();
  return written.filter((chunk) => chunk.startsWith('<row')).join('');
}

describe('XLSX data rows', () => {
  it('are byte for byte what ExcelJS writes for the same values', () => {
    const fields = fieldsOf(COLUMNS);
    // Row 1 is the header in an export; the data rows start at 2 in both.
    const theirs = excelJsRowsXml([fields.map((f) => f.header), ...ROWS.map((row) => fields.map((f) => xlsxValue(f, row)))]);
    const headerEnd = theirs.indexOf('<row r="2"');
    const ours = ROWS.map((row, i) => rowXml(i + 2, fields.map((_, c) => columnLetters(c)), fields, row, utils.xmlEncode)).join('');
    expect(headerEnd).toBeGreaterThan(0);
    expect(ours).toBe(theirs.slice(headerEnd));
    // The hazards are really in it: escaped markup, forbidden characters dropped, amounts as numbers.
    expect(ours).toContain('&lt;a&amp;b&gt; &quot;x&quot; &apos;y&apos;');
    expect(ours).not.toMatch(/[\u0001\u0008\u000b\u001f\u007f]/);
    expect(ours).toContain('<c r="C2"><v>1200000</v></c>');
    expect(ours).toContain('<c r="C3" t="str"><v>99999999999999999999</v></c>');
    expect(ours).not.toContain('<row r="6"');
  });

  it('name columns past Z as spreadsheets do', () => {
    const many = fieldsOf(Array.from({ length: 30 }, (_, i) => [`c${i}`, 'integer'] as const));
    const row = Object.fromEntries(many.map((f, i) => [f.header, i]));
    const letters = many.map((_, i) => columnLetters(i));
    const theirs = excelJsRowsXml([many.map((f) => f.header), many.map((f) => xlsxValue(f, row))]);
    expect(rowXml(2, letters, many, row, utils.xmlEncode)).toBe(theirs.slice(theirs.indexOf('<row r="2"')));
    expect(theirs).toContain('<c r="AD2"><v>29</v></c>');
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
