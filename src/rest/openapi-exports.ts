import { MESSAGE_STATUSES } from '../domain/bank-messages/messages.js';
import { headersOf } from '../domain/exports/columns.js';
import { CONTENT_TYPES, EXPORT_FORMATS, EXPORT_LANGS, EXPORT_MODES, EXPORTS_AT_ONCE, LEDGER_KINDS } from '../domain/exports/export.js';
import { bankMessagesExport, ledgerExport, paymentsExport, type ExportQuery } from '../domain/exports/store/queries.js';
import { MAX_RANGE_DAYS } from '../domain/reports/date-range.js';
import { PAYMENT_STATUSES } from '../domain/payments/types.js';
import { errors } from './openapi-errors.js';

/** The exports' part of the OpenAPI document (src/rest/openapi.ts spreads it in). */

export const exportsTag = {
  name: 'Exports',
  description: 'Payments, bank messages and the credit ledger as CSV or XLSX files (project API key or merchant key).',
};

export const merchantKeyScheme = {
  merchantKey: { type: 'http', scheme: 'bearer', description: 'A merchant key, mk_…: every project of the merchant.' },
};

const query = (name: string, description: string, schema: Record<string, unknown>, example: string) => ({ name, in: 'query', required: false, description, schema, example });

const RANGE = [
  query('from', 'Start, inclusive: an RFC 3339 date-time, or a Jalali date (from the start of that Tehran day). Default: 30 days before `to`.', { type: 'string' }, '1405-09-01'),
  query('to', `End, inclusive: an RFC 3339 date-time, or a Jalali date (to the end of that Tehran day). Default: now. At most ${MAX_RANGE_DAYS} days after \`from\`.`, { type: 'string' }, '1405-09-30'),
  query('format', 'csv (default) or xlsx.', { type: 'string', enum: [...EXPORT_FORMATS], default: 'csv' }, 'csv'),
  query(
    'lang',
    'en (default): the field names and codes as this document spells them. fa: for people: Persian headers and statuses (banks, reasons, yes/no in Persian), a `mode` column (live/test) after `id`; in XLSX a right-to-left sheet with column widths and amounts shown with thousands separators (still numbers). The dashboard downloads with fa.',
    { type: 'string', enum: [...EXPORT_LANGS], default: 'en' },
    'fa',
  ),
  query('mode', 'live: real payments and SMS only; test: sandbox payments and simulated deposits only (the ledger is live only). Default: both.', { type: 'string', enum: [...EXPORT_MODES] }, 'live'),
  query('projectId', 'Merchant key: only this project (one the merchant does not own exports nothing). A project key: its own project.', { type: 'string', format: 'uuid' }, '7d3f2c1a-5b6e-4f80-9a1b-2c3d4e5f6a7b'),
];

const DESCRIPTION =
  'Streamed from the database as the client reads it (constant memory; a client that disconnects stops the query). ' +
  'CSV: UTF-8 with a BOM, CRLF records, RFC 4180 quoting, one header row; text that starts with = + - @, a tab or CR gets a leading apostrophe (formula injection). ' +
  'Every date twice: `<name>Jalali` (`1405/09/04 14:32:05`, Tehran) and `<name>` (RFC 3339 UTC). Amounts in rials. Oldest first. ' +
  `A bad parameter is 400 naming it; at most ${EXPORTS_AT_ONCE} exports run at once per process (429 with Retry-After beyond).`;

function exportOperation(id: string, summary: string, what: string, spec: ExportQuery, filter: ReturnType<typeof query>) {
  const headers = headersOf(spec.columns);
  return {
    get: {
      operationId: id,
      tags: ['Exports'],
      summary,
      description: `${what} ${DESCRIPTION}`,
      security: [{ projectKey: [] }, { merchantKey: [] }],
      parameters: [...RANGE, filter],
      responses: {
        200: {
          description: `The file, as an attachment named \`<export>_<from>_<to>.<format>\` (Jalali days). Columns: ${headers.join(', ')}.`,
          headers: { 'Content-Disposition': { description: 'attachment; filename="…"', schema: { type: 'string' } } },
          content: {
            [CONTENT_TYPES.csv]: { schema: { type: 'string' }, example: `\ufeff${headers.join(',')}\r\n` },
            [CONTENT_TYPES.xlsx]: { schema: { type: 'string', contentMediaType: CONTENT_TYPES.xlsx } },
          },
        },
        ...errors(400, 401, 403, 429),
      },
    },
  };
}

export const exportPaths = {
  '/exports/payments': exportOperation(
    'exportPayments',
    'Export payments',
    'Payments created in the range.',
    paymentsExport,
    query('status', 'Only payments in this state.', { type: 'string', enum: [...PAYMENT_STATUSES] }, 'confirmed'),
  ),
  '/exports/bank-messages': exportOperation(
    'exportBankMessages',
    'Export bank messages',
    'Bank messages (SMS) received in the range; a project’s export holds those resolved to its cards.',
    bankMessagesExport,
    query('status', 'Only messages with this outcome.', { type: 'string', enum: [...MESSAGE_STATUSES] }, 'needs_review'),
  ),
  '/exports/ledger': exportOperation(
    'exportLedger',
    'Export the credit ledger',
    'The merchant’s credit ledger entries in the range (signed amounts, balance after each); a project’s export holds the entries of its payments.',
    ledgerExport,
    query('kind', 'Only entries of this kind.', { type: 'string', enum: [...LEDGER_KINDS] }, 'fee'),
  ),
};
