import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import type { CellValue, Field, SqlRow } from './columns.js';
import { roomIn } from './sinks.js';

/** Amounts are numbers where a spreadsheet holds them exactly; cells are typed, so text is never a formula. */
function xlsxValue(field: Field, row: SqlRow): CellValue {
  const value = field.read(row);
  if (field.amount && value !== null) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return value;
}

/**
 * The worksheet's zip entry stream. ExcelJS's row commits ignore backpressure (exceljs/exceljs#734:
 * its StreamBuf writes into the entry's deflate stream whatever that stream says), so the export
 * waits on that stream itself. Pinned exceljs 4.4.0; an upgrade that moves it fails here loudly,
 * and test/exports/xlsx.test.ts with it, rather than silently buffering a whole export in memory.
 */
async function sheetEntry(sheet: ExcelJS.Worksheet): Promise<Writable> {
  const buffer = (sheet as unknown as { stream?: { pipes?: Writable[] } }).stream;
  // The archiver connects the entry a few turns after the sheet's first write.
  for (let turn = 0; turn < 1000; turn++) {
    const entry = buffer?.pipes?.[0];
    if (entry) return entry;
    await nextTurn();
  }
  throw new Error('exceljs: the worksheet stream has no zip entry to wait on (internals changed?)');
}

/** A one-sheet workbook streamed into `sink`: header row frozen, one row per record, strings inline. */
export function xlsxWriter(sink: Writable, sheetName: string, fields: readonly Field[], signal: AbortSignal) {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  const piped = pipeline(out, sink, { signal });
  // Awaited at the end; until then a failure (the reader went away) must not go unhandled.
  piped.catch(() => undefined);
  sheet.addRow(fields.map((f) => f.header)).commit();
  let entry: Writable | null = null;
  return {
    async rows(rows: readonly SqlRow[]): Promise<void> {
      signal.throwIfAborted();
      for (const row of rows) sheet.addRow(fields.map((f) => xlsxValue(f, row))).commit();
      entry ??= await sheetEntry(sheet);
      await roomIn(entry, signal);
    },
    async end(): Promise<void> {
      sheet.commit();
      await workbook.commit();
      await piped;
    },
  };
}
