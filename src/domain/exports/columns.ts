import { jalaliDateTime } from '../calendar/tehran-calendar.js';

/**
 * What a column holds. Its SQL gives each column under its name: `text` (what a payer, a shop or
 * an SMS wrote) and `code` (our own ids, states, reasons) as strings, amounts as digit strings
 * (rials, signed in the ledger), integers and booleans as such, and instants as Dates, which
 * become two columns: `<name>Jalali` (`1405/09/04 14:32:05`, Tehran) and `<name>` (RFC 3339 UTC).
 */
export type ColumnKind = 'text' | 'code' | 'amount' | 'integer' | 'boolean' | 'instant';
export type ColumnSpec = readonly (readonly [name: string, kind: ColumnKind])[];

export type SqlRow = Record<string, unknown>;
export type CellValue = string | number | boolean | null;

/** One output column: its header, whether it holds outside text, and how it reads a row. */
export type Field = { header: string; outside: boolean; amount: boolean; read: (row: SqlRow) => CellValue };

const orNull = (v: unknown) => (v === null || v === undefined ? null : v);

/** The output columns in order, each reading its value once per row (no per-cell objects). */
export function fieldsOf(columns: ColumnSpec): Field[] {
  return columns.flatMap(([name, kind]): Field[] => {
    const plain = (read: Field['read'], outside = false, amount = false): Field => ({ header: name, outside, amount, read });
    switch (kind) {
      case 'text':
        return [plain((r) => orNull(r[name]) as string | null, true)];
      case 'code':
      case 'boolean':
        return [plain((r) => orNull(r[name]) as CellValue)];
      case 'amount':
        return [plain((r) => orNull(r[name]) as string | null, false, true)];
      case 'integer':
        return [plain((r) => (r[name] === null || r[name] === undefined ? null : Number(r[name])))];
      case 'instant': {
        const at = (r: SqlRow) => (r[name] instanceof Date ? (r[name] as Date) : null);
        return [
          { header: `${name}Jalali`, outside: false, amount: false, read: (r) => (at(r) ? jalaliDateTime(at(r)!) : null) },
          plain((r) => at(r)?.toISOString() ?? null),
        ];
      }
    }
  });
}

export function headersOf(columns: ColumnSpec): string[] {
  return fieldsOf(columns).map((f) => f.header);
}

/** The columns with `mode` (live | test) after `id`: the Persian export's (lang=fa). */
export function withMode(columns: ColumnSpec): ColumnSpec {
  const [first, ...rest] = columns;
  return [first!, ['mode', 'code'], ...rest];
}
