import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type Cursor from 'pg-cursor';
import type pg from 'pg';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import { callerScope } from '../auth/scope.js';
import { MESSAGE_STATUSES } from '../bank-messages/messages.js';
import type { LedgerKind } from '../credit/ledger.js';
import type { Deps } from '../deps.js';
import { PAYMENT_STATUSES } from '../payments/types.js';
import { rangeFields, rangeLabel, withRange, type DateRange } from '../reports/date-range.js';
import { readPool } from '../reports/read-pool.js';
import { parseInput } from '../validation.js';
import { collectGarbageSoon } from '../../gc.js';
import { fieldsOf, withMode, type SqlRow } from './columns.js';
import { persianFields } from './persian.js';
import { BOM, csvOfRows, csvRecords } from './csv.js';
import { writerWithRoom } from './sinks.js';
import { openExportCursor } from './store/cursor.js';
import { bankMessagesExport, ledgerExport, paymentsExport, type ExportQuery } from './store/queries.js';
import { xlsxWriter } from './xlsx.js';

export const EXPORT_KINDS = ['payments', 'bank-messages', 'ledger'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
/** `en` (default): field names and codes as the API spells them; `fa`: for people (src/domain/exports/persian.ts). */
export const EXPORT_LANGS = ['en', 'fa'] as const;
/** `live` or `test` (sandbox) only; absent: both, as before. */
export const EXPORT_MODES = ['live', 'test'] as const;

export const LEDGER_KINDS = Object.keys({ topup: true, fee: true, adjustment: true } satisfies Record<LedgerKind, true>) as LedgerKind[];

const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: `must be one of ${values.join(', ')}` });
const common = {
  projectId: z.string().optional(),
  ...rangeFields,
  format: oneOf(EXPORT_FORMATS).default('csv'),
  lang: oneOf(EXPORT_LANGS).default('en'),
  mode: oneOf(EXPORT_MODES).optional(),
};

/** Query parameters per export; any other parameter is refused by name (a typo must not widen an export). */
const INPUTS = {
  payments: z.object({ ...common, status: oneOf(PAYMENT_STATUSES).optional() }).strict().transform(withRange),
  'bank-messages': z.object({ ...common, status: oneOf(MESSAGE_STATUSES).optional() }).strict().transform(withRange),
  ledger: z
    .object({ ...common, kind: oneOf(LEDGER_KINDS as [LedgerKind, ...LedgerKind[]]).optional() })
    .strict()
    .transform(({ kind, ...rest }, ctx) => ({ ...withRange(rest, ctx), status: kind })),
};

const SHEET_NAMES_FA: Record<ExportKind, string> = { payments: 'پرداخت‌ها', 'bank-messages': 'پیامک‌های بانک', ledger: 'دفتر اعتبار' };

const QUERIES: Record<ExportKind, ExportQuery> = { payments: paymentsExport, 'bank-messages': bankMessagesExport, ledger: ledgerExport };

export const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/**
 * Rows per cursor read: what one export holds in memory at a time, whatever its size. Small on
 * purpose: a batch lives across a socket write, and at 1,000 rows a young-generation GC would find
 * it alive and promote it, so a full-speed export left ~100 MB of dead batches in the old
 * generation (docs/BENCHMARKS.md "export"); at 100 rows it is +3–7 MB, in as many seconds.
 */
export const EXPORT_BATCH_ROWS = 100;
/**
 * Rows between two full GCs asked of V8 (`collectGarbageSoon`). An export allocates a few KB per
 * row, nearly all of it dead at once, yet each young-generation GC promotes what it finds alive, and
 * V8 lets that garbage pile up in the old generation for ~20 MB before a full GC of its own: over a
 * 100,000-row XLSX export, the difference between meeting the 150 MB budget and not
 * (docs/BENCHMARKS.md "export"). A full GC of this process's heap takes ~10 ms.
 */
export const EXPORT_COLLECT_ROWS = 20_000;
/**
 * Exports running at once in this process. Each holds a database connection for as long as its
 * reader takes, so they are capped well below the pool's size; the next one is told to retry.
 */
export const EXPORTS_AT_ONCE = 3;
let running = 0;

export type OpenedExport = {
  filename: string;
  contentType: string;
  /** Streams the file into `sink` and ends it; stops the query when `signal` aborts (the reader left). */
  writeTo: (sink: Writable, signal: AbortSignal) => Promise<void>;
};

type Filter = {
  projectId?: string;
  range: DateRange;
  status?: string;
  format: (typeof EXPORT_FORMATS)[number];
  lang: (typeof EXPORT_LANGS)[number];
  mode?: (typeof EXPORT_MODES)[number];
};

/**
 * Checks the request, opens a server-side cursor and reads the first batch, so that every error
 * (400, 401, 429, the database) comes before the first byte. A project key exports its project; a
 * merchant credential (the merchant key, a dashboard user of any role) all of its projects, or one
 * (`projectId`); a project it cannot see exports an empty file, like a range with nothing in it.
 */
export async function openExport(deps: Deps, actor: Actor, kind: ExportKind, query: unknown): Promise<OpenedExport> {
  // 401 before 400: the caller's kind is checked before its query. Every role of a dashboard user exports.
  callerScope(actor);
  const filter: Filter = parseInput(INPUTS[kind], query);
  const scope = callerScope(actor, filter.projectId);
  if (running >= EXPORTS_AT_ONCE) {
    throw new AppError('rate_limited', `${EXPORTS_AT_ONCE} exports are already running here; retry shortly.`, { retryAfterSeconds: 5 });
  }
  running++;
  const spec = QUERIES[kind];
  let client: pg.PoolClient | null = null;
  try {
    client = await readPool(deps).connect();
    const sandbox = filter.mode === undefined ? null : filter.mode === 'test';
    const cursor = openExportCursor(client, spec, [scope.merchantId, scope.projectId, scope.none, filter.range.from, filter.range.to, filter.status ?? null, sandbox]);
    const first = await cursor.read(EXPORT_BATCH_ROWS);
    return {
      filename: `${kind}_${rangeLabel(filter.range)}.${filter.format}`,
      contentType: CONTENT_TYPES[filter.format],
      writeTo: (sink, signal) => streamRows(client!, cursor, first, spec, kind, filter, sink, signal).finally(() => running--),
    };
  } catch (err) {
    client?.release(err instanceof Error ? err : true);
    running--;
    throw err;
  }
}

async function streamRows(
  client: pg.PoolClient,
  cursor: Cursor<SqlRow>,
  first: SqlRow[],
  spec: ExportQuery,
  kind: ExportKind,
  { format, lang }: Pick<Filter, 'format' | 'lang'>,
  sink: Writable,
  signal: AbortSignal,
): Promise<void> {
  let released = false;
  let cursorClosed = false;
  // A reader that leaves ends the database session at once, mid-read too: its backend stops the
  // query at its next row (test/exports/disconnect.test.ts watches pg_stat_activity).
  const drop = () => {
    if (released) return;
    released = true;
    client.release(new Error('export stopped: the reader went away'));
  };
  signal.addEventListener('abort', drop, { once: true });
  try {
    const columns = lang === 'fa' ? withMode(spec.columns) : spec.columns;
    const fields = lang === 'fa' ? persianFields(kind, columns, fieldsOf(columns)) : fieldsOf(columns);
    let writer: { rows: (rows: SqlRow[]) => Promise<void>; end: () => Promise<void> };
    if (format === 'csv') {
      const write = writerWithRoom(sink, signal);
      await write(BOM + csvRecords([fields.map((f) => f.header)]));
      writer = {
        rows: (rows) => write(csvOfRows(fields, rows)),
        end: async () => {
          sink.end();
          await finished(sink);
        },
      };
    } else {
      writer = await xlsxWriter(sink, lang === 'fa' ? SHEET_NAMES_FA[kind] : kind, fields, signal, lang === 'fa' ? { rightToLeft: true, widths: fields.map((f) => (f as { width?: number }).width ?? 16) } : undefined);
    }
    let sinceCollected = 0;
    for (let rows = first; rows.length > 0; rows = await cursor.read(EXPORT_BATCH_ROWS)) {
      await writer.rows(rows);
      sinceCollected += rows.length;
      if (sinceCollected >= EXPORT_COLLECT_ROWS) {
        sinceCollected = 0;
        collectGarbageSoon();
      }
      if (rows.length < EXPORT_BATCH_ROWS) break;
    }
    signal.throwIfAborted();
    await cursor.close();
    cursorClosed = true;
    await writer.end();
    collectGarbageSoon();
  } finally {
    signal.removeEventListener('abort', drop);
    if (!released) {
      released = true;
      // A cursor that did not finish leaves the session mid-transaction: such a connection is dropped.
      client.release(cursorClosed ? undefined : true);
    }
  }
}
