import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fieldsOf } from '../../src/domain/exports/columns.js';
import { writerWithRoom } from '../../src/domain/exports/sinks.js';
import { paymentsExport } from '../../src/domain/exports/store/queries.js';
import { xlsxWriter } from '../../src/domain/exports/xlsx.js';

const fields = fieldsOf(paymentsExport.columns);
const batch = Array.from({ length: 1000 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  orderId: `سفارش ${i}`,
  status: 'confirmed',
  currency: 'IRR',
  amountRequested: '100000',
  amountFinal: '100120',
  amountReceived: '100120',
  refundedAmount: '0',
  fee: '1000',
  code: 120,
  cardLast4: '5678',
  payerCardLast4: null,
  payerPhone: '09121234567',
  confirmationSource: 'manual',
  confirmedLate: false,
  receiptCode: null,
  createdAt: new Date(),
  confirmedAt: new Date(),
}));

/** Whether the promise is still pending after the event loop had time to settle it. */
async function pending(p: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  return (await Promise.race([p.then(() => null), new Promise((r) => setTimeout(() => r(marker), 300))])) === marker;
}

/** Feeds batches until one waits for room; how many went in. */
async function feedUntilBlocked(rows: (b: typeof batch) => Promise<void>): Promise<{ fed: number; blocked: Promise<void> }> {
  for (let fed = 1; fed <= 100; fed++) {
    const p = rows(batch);
    if (await pending(p)) return { fed, blocked: p };
  }
  throw new Error('100 batches went in and none waited: no backpressure');
}

// A reader that takes nothing must stop the export after a few batches (memory stays at a few
// batches whatever the export's size), and one that starts reading again must let it go on.
describe('an export facing a reader that does not read', () => {
  it('CSV waits for room after a batch or two, and goes on once the reader reads', async () => {
    const sink = new PassThrough();
    const write = writerWithRoom(sink, new AbortController().signal);
    const { fed, blocked } = await feedUntilBlocked((b) => write(JSON.stringify(b)));
    expect(fed).toBeLessThanOrEqual(2);
    sink.resume();
    await expect(blocked).resolves.toBeUndefined();
  });

  it('XLSX (through ExcelJS, which ignores backpressure itself) waits too, and goes on', async () => {
    const sink = new PassThrough();
    const xlsx = await xlsxWriter(sink, 'payments', fields, new AbortController().signal);
    const { fed, blocked } = await feedUntilBlocked((b) => xlsx.rows(b));
    expect(fed).toBeLessThanOrEqual(5);
    sink.resume();
    await expect(blocked).resolves.toBeUndefined();
  });

  it('stops waiting when the reader goes away', async () => {
    const sink = new PassThrough();
    const stop = new AbortController();
    const write = writerWithRoom(sink, stop.signal);
    const { blocked } = await feedUntilBlocked((b) => write(JSON.stringify(b)));
    stop.abort(new Error('gone'));
    await expect(blocked).rejects.toThrow('gone');
  });
});
