import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type ExcelJS from 'exceljs';
import type { CellValue, Field, SqlRow } from './columns.js';
import { roomIn } from './sinks.js';

/**
 * Amounts are numbers where a spreadsheet holds them exactly; cells are typed, so text is never a
 * formula. An empty value is no cell at all (`undefined`): ExcelJS would make a cell object, its
 * value object and a model for a null, only to write nothing.
 */
function xlsxValue(field: Field, row: SqlRow): Exclude<CellValue, null> | undefined {
  const value = field.read(row);
  if (value === null) return undefined;
  if (field.amount) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return value;
}

// ExcelJS and its archiver use readable-stream 3, whose streams keep their state in `_writableState`
// (Node's own also answer `writableNeedDrain`).
type EntryStream = Writable & { _writableState?: { needDrain?: unknown } };

function entryIsFull(entry: EntryStream): boolean {
  return Boolean(entry.writableNeedDrain ?? entry._writableState?.needDrain);
}

/**
 * The worksheet's zip entry stream. ExcelJS's row commits ignore backpressure (exceljs/exceljs#734:
 * its StreamBuf writes into the entry whatever the entry says), so the export waits on the entry
 * itself. Pinned exceljs 4.4.0; an upgrade that moves it fails here loudly, and
 * test/exports/backpressure.test.ts with it, rather than silently buffering a whole export.
 */
async function sheetEntry(sheet: ExcelJS.Worksheet): Promise<EntryStream> {
  const buffer = (sheet as unknown as { stream?: { pipes?: EntryStream[] } }).stream;
  // The archiver connects the entry a few turns after the sheet's first write.
  for (let turn = 0; turn < 1000; turn++) {
    const entry = buffer?.pipes?.[0];
    if (entry && (typeof entry.writableNeedDrain === 'boolean' || typeof entry._writableState?.needDrain === 'boolean')) return entry;
    if (entry) break;
    await nextTurn();
  }
  throw new Error('exceljs: no worksheet entry stream whose fill can be watched (exceljs internals changed?)');
}

/**
 * A one-sheet workbook streamed into `sink`: header row frozen, one row per record, strings inline.
 * Only ExcelJS's streaming workbook writer is imported, on the first XLSX export: the package's
 * main module also loads every reader it has (unzipper, saxes, the whole document model), ~21 MB of
 * RSS against the writer's ~10 MB when each is imported alone (docs/BENCHMARKS.md "export").
 */
export async function xlsxWriter(sink: Writable, sheetName: string, fields: readonly Field[], signal: AbortSignal) {
  const { default: WorkbookWriter } = await import('exceljs/lib/stream/xlsx/workbook-writer.js');
  const out = new PassThrough();
  const workbook = new WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  const piped = pipeline(out, sink, { signal });
  // Awaited at the end; until then a failure (the reader went away) must not go unhandled.
  piped.catch(() => undefined);
  sheet.addRow(fields.map((f) => f.header)).commit();
  let entry: EntryStream | null = null;
  return {
    async rows(rows: readonly SqlRow[]): Promise<void> {
      signal.throwIfAborted();
      for (const row of rows) sheet.addRow(fields.map((f) => xlsxValue(f, row))).commit();
      entry ??= await sheetEntry(sheet);
      // Raw XML waiting to be compressed, then compressed bytes waiting for the reader: the
      // archiver in between takes all it is given (it pushes without asking), so both ends are watched.
      await roomIn(entry, signal, entryIsFull(entry));
      await roomIn(out, signal);
    },
    async end(): Promise<void> {
      sheet.commit();
      await workbook.commit();
      await piped;
    },
  };
}
