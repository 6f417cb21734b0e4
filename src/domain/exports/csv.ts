import { stringify } from 'csv-stringify/sync';
import type { Cell } from './columns.js';

/** Excel reads a UTF-8 file as UTF-8 (and shows Persian) only when it starts with a BOM. */
export const BOM = '\ufeff';

// OWASP "CSV injection": a cell starting with one of these may be run as a formula by a spreadsheet.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text that came from outside (an order id, a phone, an SMS) is never left to start a formula: a
 * leading apostrophe makes a spreadsheet show it as text (docs/security.md). Amounts, counts and
 * our own values (ids, statuses, dates) are left as they are: `-50000` in the ledger is a number.
 */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function csvValue(cell: Cell): string {
  if (cell.value === null) return '';
  if (cell.kind === 'text') return neutralizeFormula(cell.value);
  return String(cell.value);
}

/** RFC 4180 records: CRLF after each, fields quoted when they hold a comma, a quote or a line break. */
export function csvRecords(rows: readonly (readonly string[])[]): string {
  return stringify(rows as string[][], { record_delimiter: 'windows', quoted_match: /^\s|\s$/ });
}

export function csvOfCells(rows: readonly Cell[][]): string {
  return csvRecords(rows.map((cells) => cells.map(csvValue)));
}
