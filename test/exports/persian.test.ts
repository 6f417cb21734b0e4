import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tehranDayStart } from '../../src/domain/calendar/tehran-calendar.js';
import { makeShop, startTestApp, type TestApp } from '../support/harness.js';
import { insertPayment, shopOf, type Shop } from '../reports/payment-rows.js';

/**
 * Exports for people (the OpenAPI document's `lang` and `mode`): `lang=fa` gives Persian headers and
 * statuses and a live/test `mode` column, and in XLSX a right-to-left sheet with column widths and
 * amounts as numbers shown with separators; `mode=live|test` keeps the two apart; without them the
 * file is as before.
 */

const D3 = { jy: 1405, jm: 9, jd: 3 };
const valuesOf = (sheet: ExcelJS.Worksheet) => sheet.getSheetValues().filter(Boolean).map((row) => (row as unknown[]).slice(1));

describe('exports for people (lang=fa)', () => {
  let app: TestApp;
  let db: pg.Client;
  let live: Shop & { apiKey: string; merchantKey: string };
  let test: Shop & { apiKey: string };

  const get = (path: string, token: string) => fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    app = await startTestApp({ role: 'api' });
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    const a = await makeShop(app, { sandbox: false, credit: 1_000_000 });
    live = { ...a, ...(await shopOf(db, a, false)) };
    const b = await makeShop(app, { merchantKey: a.merchantKey });
    test = { ...b, ...(await shopOf(db, b, true)) };
    const at = tehranDayStart(D3).getTime();
    await insertPayment(db, live, { status: 'confirmed', createdAt: new Date(at + 3_600_000), orderId: 'سفارش ۱۲', amountRequested: 1_500_000, code: 370, fee: 1_000 });
    await insertPayment(db, live, { status: 'pending', createdAt: new Date(at + 7_200_000), orderId: 'A-2' });
    await insertPayment(db, test, { status: 'expired', createdAt: new Date(at + 10_800_000), orderId: 'T-1' });
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  it('XLSX: a right-to-left sheet, Persian headers and statuses, a mode column, widths, amounts as numbers with separators', async () => {
    const res = await get('/v1/exports/payments?from=1405-09-03&to=1405-09-03&format=xlsx&lang=fa', live.merchantKey);
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('پرداخت‌ها');
    expect(sheet.views[0]).toMatchObject({ rightToLeft: true, state: 'frozen', ySplit: 1 });
    const [header, ...rows] = valuesOf(sheet);
    expect(header!.slice(0, 6)).toEqual(['شناسه', 'حالت', 'شماره سفارش', 'وضعیت', 'واحد پول درخواست', 'مبلغ درخواستی (ریال)']);
    expect(header).toContain('زمان ایجاد (شمسی، تهران)');
    expect(rows.map((r) => [r[1], r[2], r[3]])).toEqual([
      ['واقعی', 'سفارش ۱۲', 'تأییدشده'],
      ['واقعی', 'A-2', 'در انتظار پرداخت'],
      ['آزمایشی', 'T-1', 'منقضی'],
    ]);
    const amountCell = sheet.getRow(2).getCell(6);
    expect(amountCell.value).toBe(1_500_000);
    expect(amountCell.numFmt).toBe('#,##0');
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    const widths = sheet.columns.map((c) => c.width);
    expect(widths).toHaveLength(header!.length);
    expect(widths.every((w) => typeof w === 'number' && w >= 12)).toBe(true);
    expect(sheet.getColumn(1).width).toBe(38);
  });

  it('CSV: Persian headers, statuses and yes/no, the mode column; amounts stay digits', async () => {
    const res = await get('/v1/exports/payments?from=1405-09-03&to=1405-09-03&lang=fa&mode=live', live.merchantKey);
    expect(res.status).toBe(200);
    const text = await res.text();
    const [header, first, second, third] = text.replace(/^\ufeff/, '').trimEnd().split('\r\n');
    expect(header!.split(',').slice(0, 4)).toEqual(['شناسه', 'حالت', 'شماره سفارش', 'وضعیت']);
    expect(first).toContain(',واقعی,سفارش ۱۲,تأییدشده,ریال,1500000,1500370,');
    expect(first).toContain(',خیر,');
    expect(second).toContain(',واقعی,A-2,در انتظار پرداخت,');
    // mode=live: the sandbox payment is not in it.
    expect(third).toBeUndefined();
  });

  it('mode=test keeps sandbox only; the machine default is unchanged (English names, codes, no mode column)', async () => {
    const onlyTest = await (await get('/v1/exports/payments?from=1405-09-03&to=1405-09-03&mode=test', live.merchantKey)).text();
    const lines = onlyTest.replace(/^\ufeff/, '').trimEnd().split('\r\n');
    expect(lines[0]!.startsWith('id,orderId,status,currency,')).toBe(true);
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['T-1']);
    const both = await (await get('/v1/exports/payments?from=1405-09-03&to=1405-09-03', live.merchantKey)).text();
    expect(both.replace(/^\ufeff/, '').trimEnd().split('\r\n').slice(1).map((l) => l.split(',')[2])).toEqual(['confirmed', 'pending', 'expired']);
    const ledgerTest = await (await get('/v1/exports/ledger?from=1405-09-03&to=1405-09-03&mode=test&lang=fa', live.merchantKey)).text();
    expect(ledgerTest.replace(/^\ufeff/, '').trimEnd().split('\r\n')).toHaveLength(1);
    const bad = await get('/v1/exports/payments?lang=de&mode=both', live.merchantKey);
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['lang', 'mode']);
  });
});
