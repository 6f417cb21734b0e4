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
export function xlsxValue(field: Field, row: SqlRow): Exclude<CellValue, null> | undefined {
  const value = field.read(row);
  if (value === null) return undefined;
  if (field.amount) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return value;
}

export const columnLetters = (index: number): string => (index < 26 ? '' : columnLetters(Math.floor(index / 26) - 1)) + String.fromCharCode(65 + (index % 26));

/**
 * One data row of the sheet, as ExcelJS's own row writer puts it (`<row … spans>`, `t="str"` text,
 * `t="b"` booleans, numbers bare, no cell for an empty value; its `xmlEncode` for text, which also
 * drops the characters XML 1.0 forbids). ExcelJS builds a Row, a Cell and a value object per cell and
 * an XML node tree per row to write the same bytes: ~25 KB of garbage per row, ~3× the time, and a
 * heap V8 lets grow past the export's memory budget. test/exports/xlsx-rows.test.ts holds the two
 * byte for byte equal, so an ExcelJS upgrade that writes rows otherwise is caught.
 */
export function rowXml(r: number, letters: readonly string[], fields: readonly Field[], row: SqlRow, xmlEncode: (text: string) => string, amountStyle = 0): string {
  let cells = '';
  let first = 0;
  let last = 0;
  for (let i = 0; i < fields.length; i++) {
    const value = xlsxValue(fields[i]!, row);
    if (value === undefined) continue;
    if (first === 0) first = i + 1;
    last = i + 1;
    const ref = letters[i]! + r;
    if (typeof value === 'number') cells += amountStyle && fields[i]!.amount ? `<c r="${ref}" s="${amountStyle}"><v>${value}</v></c>` : `<c r="${ref}"><v>${value}</v></c>`;
    else if (typeof value === 'boolean') cells += `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
    else cells += `<c r="${ref}" t="str"><v>${xmlEncode(value)}</v></c>`;
  }
  return first === 0 ? '' : `<row r="${r}" spans="${first}:${last}" x14ac:dyDescent="0.25">${cells}</row>`;
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
async function sheetEntry(sheet: SheetInternals): Promise<EntryStream> {
  const buffer = sheet.stream;
  // The archiver connects the entry a few turns after the sheet's first write.
  for (let turn = 0; turn < 1000; turn++) {
    const entry = buffer?.pipes?.[0];
    if (entry && (typeof entry.writableNeedDrain === 'boolean' || typeof entry._writableState?.needDrain === 'boolean')) return entry;
    if (entry) break;
    await nextTurn();
  }
  throw new Error('exceljs: no worksheet entry stream whose fill can be watched (exceljs internals changed?)');
}

/** What the export uses of a streaming worksheet beyond its typings: the sheet's XML stream (ExcelJS's StreamBuf). */
type SheetInternals = { stream?: { write: (xml: string) => unknown; pipes?: EntryStream[] } };

/**
 * zlib's level for the workbook's parts: 3 instead of its default 6. Compressing was most of an XLSX
 * export's time: a 60 MB sheet took 0.5 s of CPU at 3 against 1.5 s at 6, and the 100,000-payment
 * export came out smaller, not larger (11.7 MB against 12.7 MB; docs/BENCHMARKS.md "export").
 */
export const XLSX_DEFLATE_LEVEL = 3;

/**
 * A one-sheet workbook streamed into `sink`: header row frozen, one row per record, strings inline.
 * Only ExcelJS's streaming workbook writer is imported, on the first XLSX export: the package's
 * main module also loads every reader it has (unzipper, saxes, the whole document model), ~21 MB of
 * RSS against the writer's ~10 MB when each is imported alone (docs/BENCHMARKS.md "export").
 */
/** A sheet for people (lang=fa): right to left, a width per column, amounts shown with separators, the header bold. */
export type PeopleSheet = { rightToLeft: boolean; widths: readonly number[] };

/** The number format of amounts in a sheet for people: whole rials with thousands separators. */
export const AMOUNT_FORMAT = '#,##0';

export async function xlsxWriter(sink: Writable, sheetName: string, fields: readonly Field[], signal: AbortSignal, people?: PeopleSheet) {
  const [{ default: WorkbookWriter }, { default: utils }] = await Promise.all([
    import('exceljs/lib/stream/xlsx/workbook-writer.js'),
    import('exceljs/lib/utils/utils.js'),
  ]);
  const out = new PassThrough();
  // The archiver's buffers hold 64 KB instead of its 1 MB default: the export waits for room anyway
  // (`highWaterMark` is archiver's own stream option, which ExcelJS's typings of `zip` leave out).
  const zip = { highWaterMark: 64 * 1024, zlib: { level: XLSX_DEFLATE_LEVEL } } as ExcelJS.stream.xlsx.WorkbookStreamWriterOptions['zip'];
  const workbook = new WorkbookWriter({ stream: out, useStyles: Boolean(people), useSharedStrings: false, zip });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1, ...(people ? { rightToLeft: people.rightToLeft } : {}) }] });
  // The style of amount cells, registered once (our own rows name it by index): ExcelJS's styles part.
  let amountStyle = 0;
  if (people) {
    sheet.columns = people.widths.map((width) => ({ width }));
    const styles = (workbook as unknown as { styles: { addStyleModel: (model: object, cellType?: number) => number } }).styles;
    amountStyle = styles.addStyleModel({ numFmt: AMOUNT_FORMAT }, 2 /* ExcelJS ValueType.Number */);
  }
  const piped = pipeline(out, sink, { signal });
  // Awaited at the end; until then a failure (the reader went away) must not go unhandled.
  piped.catch(() => undefined);
  // The header through ExcelJS itself, which also opens the sheet's data; the rows after it are ours.
  const header = sheet.addRow(fields.map((f) => f.header));
  if (people) header.font = { bold: true };
  header.commit();
  const internals = sheet as unknown as SheetInternals;
  const letters = fields.map((_, i) => columnLetters(i));
  let rowNumber = 1;
  let entry: EntryStream | null = null;
  return {
    async rows(rows: readonly SqlRow[]): Promise<void> {
      signal.throwIfAborted();
      let xml = '';
      for (const row of rows) xml += rowXml(++rowNumber, letters, fields, row, utils.xmlEncode, amountStyle);
      if (!internals.stream) throw new Error('exceljs: the worksheet has no stream to write rows into (exceljs internals changed?)');
      void internals.stream.write(xml);
      entry ??= await sheetEntry(internals);
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
