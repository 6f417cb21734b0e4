import type pg from 'pg';
import Cursor from 'pg-cursor';
import type { SqlRow } from '../columns.js';
import type { ExportQuery } from './queries.js';

/** The parameters every export statement takes, in order (queries.ts). */
export type ExportParams = [merchantId: string, projectId: string | null, none: boolean, from: Date, to: Date, status: string | null, sandbox: boolean | null];

/**
 * Opens the export's server-side cursor on `client` (a connection held for the whole export): rows
 * are read from it in batches, so an export of any size holds one batch in memory.
 */
export function openExportCursor(client: pg.PoolClient, query: ExportQuery, params: ExportParams): Cursor<SqlRow> {
  return client.query(new Cursor<SqlRow>(query.text, params));
}
