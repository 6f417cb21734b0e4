import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tehranDayStart } from '../../src/domain/calendar/tehran-calendar.js';
import { makeShop, startTestApp, type TestApp } from '../support/harness.js';
import { insertPayment, shopOf, type Shop } from '../reports/payment-rows.js';

const D3 = { jy: 1405, jm: 9, jd: 3 };

async function workbookOf(app: TestApp, path: string, token: string) {
  const res = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const bytes = Buffer.from(await res.arrayBuffer());
  const workbook = new ExcelJS.Workbook();
  if (res.status === 200) await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return { res, workbook };
}

/** A sheet's rows as arrays of cell values (ExcelJS rows are 1-based with a hole at 0). */
const valuesOf = (sheet: ExcelJS.Worksheet) => sheet.getSheetValues().filter(Boolean).map((row) => (row as unknown[]).slice(1));

describe('XLSX exports', () => {
  let app: TestApp;
  let db: pg.Client;
  let shop: Shop & { apiKey: string; merchantKey: string };

  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    const made = await makeShop(app, { sandbox: false, credit: 1_000_000 });
    shop = { ...made, ...(await shopOf(db, made, false)) };
    const at = tehranDayStart(D3).getTime();
    await insertPayment(db, shop, { status: 'confirmed', createdAt: new Date(at + 3_600_000), orderId: 'سفارش ۱۲', fee: 1_000 });
    // More rows than one cursor batch, so the sheet is written across several waits for room.
    await db.query(
      `INSERT INTO payments (project_id, merchant_id, card_id, amount_requested, code, amount_final, amount_mode, token, expires_at, late_until, sandbox, created_at, fee_amount, fee_state, fee_stripe, order_id)
       SELECT $1, $2, $3, 100000, 10 * (i % 9000), 100000 + 10 * (i % 9000), 'unique_code', lpad(i::text, 43, 'X'),
              $4::timestamptz + interval '1 hour', $4::timestamptz + interval '2 hours', false, $4::timestamptz + i * interval '1 second', 1000, 'reserved', 0, '=order-' || i
         FROM generate_series(1, 2500) i`,
      [shop.projectId, shop.merchantId, shop.cardId, new Date(at + 7_200_000)],
    );
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  it('opens as a workbook with one sheet: a header row and one typed row per payment', async () => {
    const { res, workbook } = await workbookOf(app, '/v1/exports/payments?from=1405-09-03&to=1405-09-03&format=xlsx', shop.apiKey);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="payments_1405-09-03_1405-09-03.xlsx"');
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['payments']);
    const [header, first, ...rest] = valuesOf(workbook.worksheets[0]!);
    expect(header).toEqual([
      'id', 'orderId', 'status', 'currency', 'amountRequested', 'amountFinal', 'amountReceived', 'refundedAmount', 'fee', 'code', 'cardLast4',
      'payerCardLast4', 'payerPhone', 'confirmationSource', 'confirmedLate', 'receiptCode', 'createdAtJalali', 'createdAt', 'confirmedAtJalali', 'confirmedAt',
    ]);
    expect(first).toEqual([
      expect.any(String), 'سفارش ۱۲', 'confirmed', 'IRR', 100000, 100120, 100120, 0, 1000, 120, '5678',
      undefined, undefined, 'manual', false, undefined, '1405/09/03 01:00:00', '2026-11-23T21:30:00.000Z', '1405/09/03 01:01:00', '2026-11-23T21:31:00.000Z',
    ]);
    expect(rest).toHaveLength(2500);
    // A string cell is text, never a formula: no apostrophe is added in a workbook.
    expect(rest[0]![1]).toBe('=order-1');
    expect(rest[2499]![16]).toBe('1405/09/03 02:41:40');
  });

  it('exports the ledger as a workbook too', async () => {
    const { res, workbook } = await workbookOf(app, '/v1/exports/ledger?format=xlsx', shop.merchantKey);
    expect(res.status).toBe(200);
    const [header, topup] = valuesOf(workbook.worksheets[0]!);
    expect(header).toEqual(['id', 'kind', 'amount', 'balanceAfter', 'paymentId', 'note', 'createdAtJalali', 'createdAt']);
    expect(topup!.slice(0, 6)).toEqual([expect.any(String), 'topup', 1000000, 1000000, undefined, 'opening credit']);
  });
});
