import { jalaliDateTime } from '../reports/tehran-calendar.js';

/**
 * What a column holds. Its SQL gives each column under its name: `text` (what a payer, a shop or
 * an SMS wrote) and `code` (our own ids, states, reasons) as strings,
 * amounts as digit strings (rials, signed in the ledger), integers and booleans as such, and
 * instants as Dates, which become two columns: `<name>Jalali` (`1405/09/04 14:32:05`, Tehran) and
 * `<name>` (RFC 3339 UTC).
 */
export type ColumnKind = 'text' | 'code' | 'amount' | 'integer' | 'boolean' | 'instant';
export type ColumnSpec = readonly (readonly [name: string, kind: ColumnKind])[];

/** One output cell: `text` came from outside; `code` is ours (ids, states, dates). */
export type Cell =
  | { kind: 'text' | 'code'; value: string | null }
  | { kind: 'amount'; value: string | null }
  | { kind: 'integer'; value: number | null }
  | { kind: 'boolean'; value: boolean | null };

export type SqlRow = Record<string, unknown>;

export function headersOf(columns: ColumnSpec): string[] {
  return columns.flatMap(([name, kind]) => (kind === 'instant' ? [`${name}Jalali`, name] : [name]));
}

function textOf(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** A row's cells in header order. */
export function cellsOf(columns: ColumnSpec, row: SqlRow): Cell[] {
  const cells: Cell[] = [];
  for (const [name, kind] of columns) {
    const value = row[name];
    switch (kind) {
      case 'text':
      case 'code':
        cells.push({ kind, value: textOf(value) });
        break;
      case 'amount':
        cells.push({ kind: 'amount', value: textOf(value) });
        break;
      case 'integer':
        cells.push({ kind: 'integer', value: value === null || value === undefined ? null : Number(value) });
        break;
      case 'boolean':
        cells.push({ kind: 'boolean', value: value === null || value === undefined ? null : Boolean(value) });
        break;
      case 'instant': {
        const at = value instanceof Date ? value : null;
        cells.push({ kind: 'code', value: at && jalaliDateTime(at) }, { kind: 'code', value: at && at.toISOString() });
        break;
      }
    }
  }
  return cells;
}
