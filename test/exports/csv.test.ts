import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tehranDayStart, type JalaliDay } from '../../src/domain/calendar/tehran-calendar.js';
import { makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { insertPayment, shopOf, type Shop } from '../reports/payment-rows.js';
import { readCsv, readCsvObjects } from './read-csv.js';

const D3 = { jy: 1405, jm: 9, jd: 3 };
const D4 = { jy: 1405, jm: 9, jd: 4 };
const D5 = { jy: 1405, jm: 9, jd: 5 };
const tehran = (day: JalaliDay, hh: number, mm = 0, ss = 0, ms = 0) => new Date(tehranDayStart(day).getTime() + ((hh * 60 + mm) * 60 + ss) * 1000 + ms);

const PAYMENT_HEADER =
  'id,orderId,status,currency,amountRequested,amountFinal,amountReceived,refundedAmount,fee,code,cardLast4,payerCardLast4,payerPhone,confirmationSource,confirmedLate,receiptCode,createdAtJalali,createdAt,confirmedAtJalali,confirmedAt';
const BOM = '\ufeff';

async function exportOf(app: TestApp, path: string, token?: string) {
  const res = await fetch(`${app.baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
}

describe('CSV exports', () => {
  let app: TestApp;
  let db: pg.Client;
  let live: Shop & { apiKey: string; merchantKey: string; deviceToken?: string };
  let other: Shop & { apiKey: string };
  let stranger: Shop & { apiKey: string; merchantKey: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    const a = await makeShop(app, { sandbox: false, credit: 5_000_000 });
    live = { ...a, ...(await shopOf(db, a, false)) };
    const b = await makeShop(app, { merchantKey: a.merchantKey });
    other = { ...b, ...(await shopOf(db, b, true)) };
    const c = await makeShop(app, { sandbox: false, credit: 1_000_000 });
    stranger = { ...c, ...(await shopOf(db, c, false)) };

    ids.first = await insertPayment(db, live, { status: 'confirmed', createdAt: tehran(D3, 0, 0), orderId: '=HYPERLINK("http://evil.example/x")', payerPhone: '+989121234567', fee: 1_000, refunded: 5_000 });
    ids.persian = await insertPayment(db, live, { status: 'pending', createdAt: tehran(D3, 14, 32, 5), orderId: 'کتاب "ویژه", جلد ۲\r\nخط دوم', currency: 'IRT' });
    ids.lastOfDay = await insertPayment(db, live, { status: 'expired', createdAt: tehran(D4, 23, 59, 59, 999), orderId: '@SUM(A1)' });
    ids.nextDay = await insertPayment(db, live, { status: 'canceled', createdAt: tehran(D5, 0, 0), orderId: '-2+3' });
    ids.otherProject = await insertPayment(db, other, { status: 'confirmed', createdAt: tehran(D4, 9, 0), orderId: 'sandbox order' });
    ids.strangers = await insertPayment(db, stranger, { status: 'confirmed', createdAt: tehran(D4, 9, 0), orderId: 'not yours' });
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  it('is UTF-8 with a BOM, one header row and CRLF records, sent as an attachment named by its Jalali range', async () => {
    const res = await exportOf(app, '/v1/exports/payments?from=1405-09-03&to=1405-09-04', live.apiKey);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="payments_1405-09-03_1405-09-04.csv"');
    expect([...res.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(res.text.startsWith(`${BOM}${PAYMENT_HEADER}\r\n`)).toBe(true);
    expect(res.text.endsWith('\r\n')).toBe(true);
  });

  it('quotes per RFC 4180, keeps Persian text and line breaks, and defuses formulas with an apostrophe', async () => {
    const res = await exportOf(app, '/v1/exports/payments?from=1405-09-03&to=1405-09-04', live.apiKey);
    expect(res.text).toContain(`"'=HYPERLINK(""http://evil.example/x"")"`);
    expect(res.text).toContain(`"کتاب ""ویژه"", جلد ۲\r\nخط دوم"`);
    const rows = readCsvObjects(res.text.slice(1));
    expect(rows.map((r) => r.id)).toEqual([ids.first, ids.persian, ids.lastOfDay]);
    expect(rows[0]).toMatchObject({ orderId: `'=HYPERLINK("http://evil.example/x")`, payerPhone: `'+989121234567` });
    expect(rows[1]!.orderId).toBe('کتاب "ویژه", جلد ۲\r\nخط دوم');
    expect(rows[2]!.orderId).toBe(`'@SUM(A1)`);
  });

  it('writes every date twice (Jalali in Tehran, RFC 3339) and amounts in rials', async () => {
    const rows = readCsvObjects((await exportOf(app, '/v1/exports/payments?from=1405-09-03&to=1405-09-04', live.apiKey)).text.slice(1));
    expect(rows[0]).toMatchObject({
      status: 'confirmed',
      currency: 'IRR',
      amountRequested: '100000',
      amountFinal: '100120',
      amountReceived: '100120',
      refundedAmount: '5000',
      fee: '1000',
      code: '120',
      cardLast4: '5678',
      confirmationSource: 'manual',
      confirmedLate: 'false',
      receiptCode: '',
      createdAtJalali: '1405/09/03 00:00:00',
      createdAt: '2026-11-23T20:30:00.000Z',
      confirmedAtJalali: '1405/09/03 00:01:00',
      confirmedAt: '2026-11-23T20:31:00.000Z',
    });
    expect(rows[1]).toMatchObject({ status: 'pending', currency: 'IRT', amountReceived: '', fee: '0', createdAtJalali: '1405/09/03 14:32:05', confirmedAt: '' });
  });

  it('takes RFC 3339 ends to the millisecond, inclusive', async () => {
    const from = encodeURIComponent(tehran(D4, 23, 59, 59, 999).toISOString());
    const to = encodeURIComponent(tehran(D5, 0, 0).toISOString());
    const rows = readCsvObjects((await exportOf(app, `/v1/exports/payments?from=${from}&to=${to}`, live.apiKey)).text.slice(1));
    expect(rows.map((r) => r.id)).toEqual([ids.lastOfDay, ids.nextDay]);
    expect(rows[1]!.orderId).toBe(`'-2+3`);
  });

  it('filters by status', async () => {
    const rows = readCsvObjects((await exportOf(app, '/v1/exports/payments?from=1405-09-01&to=1405-09-30&status=expired', live.apiKey)).text.slice(1));
    expect(rows.map((r) => r.id)).toEqual([ids.lastOfDay]);
  });

  it('refuses bad parameters with 400 naming each one', async () => {
    const cases: [string, string[]][] = [
      ['from=1405-07-31', ['from']],
      ['from=1405-12-30', ['from']],
      ['from=1404-01-01&to=1405-09-04', ['to']],
      ['from=1390-01-01', ['from']],
      ['from=yesterday', ['from']],
      ['status=paid', ['status']],
      ['format=pdf', ['format']],
      ['staus=confirmed', ['staus']],
    ];
    for (const [query, fields] of cases) {
      const res = await request(app.baseUrl, 'GET', `/v1/exports/payments?${query}`, { token: live.apiKey });
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type'), query).toMatch(/^application\/json/);
      expect(res.body.error.code, query).toBe('invalid_request');
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field), query).toEqual(fields);
    }
  });

  it('needs a project or merchant key', async () => {
    expect((await request(app.baseUrl, 'GET', '/v1/exports/payments')).status).toBe(401);
    expect((await request(app.baseUrl, 'GET', '/v1/exports/payments', { token: live.deviceToken })).status).toBe(401);
  });

  it('gives a merchant key every project of its merchant, or one with projectId', async () => {
    const all = readCsvObjects((await exportOf(app, '/v1/exports/payments?from=1405-09-01&to=1405-09-30', live.merchantKey)).text.slice(1));
    expect(all.map((r) => r.id).sort()).toEqual([ids.first, ids.persian, ids.lastOfDay, ids.nextDay, ids.otherProject].sort());
    const one = readCsvObjects((await exportOf(app, `/v1/exports/payments?from=1405-09-01&to=1405-09-30&projectId=${other.projectId}`, live.merchantKey)).text.slice(1));
    expect(one.map((r) => r.id)).toEqual([ids.otherProject]);
  });

  it('exports nothing, with its header, for a project the caller cannot see', async () => {
    const empty = `${BOM}${PAYMENT_HEADER}\r\n`;
    const foreign = await exportOf(app, `/v1/exports/payments?from=1405-09-01&to=1405-09-30&projectId=${stranger.projectId}`, live.merchantKey);
    expect([foreign.status, foreign.text]).toEqual([200, empty]);
    const sibling = await exportOf(app, `/v1/exports/payments?from=1405-09-01&to=1405-09-30&projectId=${other.projectId}`, live.apiKey);
    expect([sibling.status, sibling.text]).toEqual([200, empty]);
    const malformed = await exportOf(app, '/v1/exports/payments?from=1405-09-01&to=1405-09-30&projectId=nope', live.merchantKey);
    expect([malformed.status, malformed.text]).toEqual([200, empty]);
  });

  it('exports bank messages with their text as forwarded', async () => {
    const body = 'بانک ملت\nواریز: 1,250,000 ریال\n=cmd|"/c calc"!A1';
    const sent = await request(app.baseUrl, 'POST', '/v1/device/messages', { token: live.deviceToken, body: { sender: 'BankMellat', body, receivedAt: new Date().toISOString() } });
    expect(sent.status).toBe(202);
    const res = await exportOf(app, '/v1/exports/bank-messages', live.merchantKey);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="bank-messages_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = readCsv(res.text.slice(1));
    expect(header).toEqual([
      'id', 'status', 'reviewReason', 'statusReason', 'sender', 'bankCode', 'direction', 'amount', 'reference', 'cardLast4', 'paymentId', 'simulated', 'body',
      'bankTimeJalali', 'bankTime', 'receivedAtJalali', 'receivedAt', 'createdAtJalali', 'createdAt',
    ]);
    const row = Object.fromEntries(header!.map((h, i) => [h, rows.find((r) => r[0] === sent.body.id)![i]]));
    expect(row).toMatchObject({ id: sent.body.id, status: sent.body.status, sender: 'BankMellat', body, simulated: 'false' });
    expect(row.receivedAtJalali).toMatch(/^14\d\d\/\d\d\/\d\d \d\d:\d\d:\d\d$/);
  });

  it('exports the merchant’s ledger, and to a project key only its payments’ entries', async () => {
    const merchant = readCsvObjects((await exportOf(app, '/v1/exports/ledger', live.merchantKey)).text.slice(1));
    expect(merchant).toEqual([expect.objectContaining({ kind: 'topup', amount: '5000000', balanceAfter: '5000000', paymentId: '' })]);
    const fees = readCsvObjects((await exportOf(app, '/v1/exports/ledger?kind=fee', live.merchantKey)).text.slice(1));
    expect(fees).toEqual([]);
    const project = await exportOf(app, '/v1/exports/ledger', live.apiKey);
    expect(project.text).toBe(`${BOM}id,kind,amount,balanceAfter,paymentId,note,createdAtJalali,createdAt\r\n`);
    expect((await request(app.baseUrl, 'GET', '/v1/exports/ledger?status=fee', { token: live.merchantKey })).status).toBe(400);
  });
});
