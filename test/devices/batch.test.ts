import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';
import { liveShopWithHook, MELLAT_SENDER, newPayment, paymentOf } from './shop.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const sms = (body: string, receivedAt: Date | string = new Date()) => ({
  sender: MELLAT_SENDER,
  body,
  receivedAt: typeof receivedAt === 'string' ? receivedAt : receivedAt.toISOString(),
});
const batch = (token: string, messages: unknown[]) => request(app.baseUrl, 'POST', '/v1/device/messages/batch', { token, body: { messages } });

describe('POST /v1/device/messages/batch', () => {
  it('processes deposits in bank-time order, not the order sent: the older transfer confirms the payment', async () => {
    // Given one payment and two transfers of its exact amount, whose SMS arrive newest first
    const shop = await liveShopWithHook(app);
    const payment = await newPayment(app, shop.apiKey);
    const amount = BigInt(payment.amountFinal);
    const older = new Date(Date.now() - 60_000);
    const newer = new Date();
    const balance = 30_000_000;
    const olderSms = mellatDeposit({ account: shop.account, amount, at: older, balance: balance + Number(amount) });
    const newerSms = mellatDeposit({ account: shop.account, amount, at: newer, balance: balance + 2 * Number(amount) });
    // When both are backfilled (both received now: only the bank time in the text tells them apart)
    const receivedAt = new Date();
    const res = await batch(shop.deviceToken, [sms(newerSms, receivedAt), sms(olderSms, receivedAt)]);
    // Then the answer is in the order sent, and the older transfer is the one that confirmed it
    expect(res.status).toBe(202);
    const [newItem, oldItem] = res.body.items as { id: string; status: string }[];
    expect(oldItem!.status).toBe('matched');
    expect(newItem!.status).not.toBe('matched');
    const confirmed = await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(confirmed.confirmedByMessageId).toBe(oldItem!.id);
    // and the balance chain read them oldest first: the newer one was not flagged as a mismatch
    const newerRow = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: newItem!.id } });
    expect(newerRow.statusReason ?? '').not.toMatch(/balance/i);
    expect(await paymentOf(app, shop.apiKey, payment.id)).toMatchObject({ status: 'confirmed' });
  });

  it('stores a repeat inside the batch and one of an earlier single post as duplicates, each with its own id', async () => {
    const shop = await liveShopWithHook(app);
    const at = new Date(Date.now() - 5_000).toISOString();
    const first = sms(mellatDeposit({ account: shop.account, amount: 777_770, balance: 40_000_000 }), at);
    const single = await request(app.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body: first });
    const other = sms('پیام دیگر', at);
    const res = await batch(shop.deviceToken, [first, other, other]);
    expect(res.status).toBe(202);
    const [a, b, c] = res.body.items as { id: string; status: string }[];
    expect(a!.status).toBe('duplicate');
    expect(c!.status).toBe('duplicate');
    expect(b!.status).not.toBe('duplicate');
    expect(new Set([single.body.id, a!.id, b!.id, c!.id]).size).toBe(4);
    const rows = await app.deps.prisma.bankMessage.findMany({ where: { id: { in: [a!.id, c!.id] } } });
    expect(Object.fromEntries(rows.map((r) => [r.id, r.duplicateOfId]))).toEqual({ [a!.id]: single.body.id, [c!.id]: b!.id });
  });

  it('takes 1..500 messages and names the index of a bad one; nothing is stored from a refused batch', async () => {
    const shop = await liveShopWithHook(app);
    const base = Date.now() - 3_600_000;
    // 20 distinct SMS, each queued 25 times by the phone (one receivedAt each): 500 messages, of
    // which 20 are processed and 480 stored as duplicates (processing 500 fresh ones costs ~20 times
    // more and says nothing more about the bounds).
    const many = Array.from({ length: 501 }, (_, i) => sms(`Operator notice ${i % 20}`, new Date(base + (i % 20) * 1000)));
    const tooMany = await batch(shop.deviceToken, many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.fields).toEqual([{ field: 'messages', message: 'must hold 1..500 messages' }]);
    expect((await batch(shop.deviceToken, [])).status).toBe(400);

    const bad = many.slice(0, 5).map((m, i) => (i === 3 ? { ...m, body: '' } : m));
    const refused = await batch(shop.deviceToken, bad);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['messages[3].body']);
    expect(await app.deps.prisma.bankMessage.count({ where: { deviceId: shop.deviceId } })).toBe(0);

    const full = await batch(shop.deviceToken, many.slice(0, 500));
    expect(full.status).toBe(202);
    const items = full.body.items as { id: string; status: string }[];
    expect(items).toHaveLength(500);
    expect(new Set(items.map((item) => item.id)).size).toBe(500);
    // In the order sent: the first of each SMS processed, every later copy a duplicate.
    expect(items.map((item, i) => (i < 20 ? item.status !== 'duplicate' : item.status === 'duplicate'))).toEqual(Array(500).fill(true));
    expect(await app.deps.prisma.bankMessage.count({ where: { deviceId: shop.deviceId } })).toBe(500);
    expect(await app.deps.prisma.bankMessage.count({ where: { deviceId: shop.deviceId, duplicateOfId: null } })).toBe(20);
  }, 120_000);

  it('is posted through the hook URL too, and needs a credential before its body is read', async () => {
    const shop = await liveShopWithHook(app);
    const payment = await newPayment(app, shop.apiKey);
    const body = { messages: [sms(mellatDeposit({ account: shop.account, amount: payment.amountFinal, at: new Date(Date.now() - 20_000) }))] };
    const res = await request(app.baseUrl, 'POST', `/v1/device/hooks/${shop.hookSecret}/batch`, { body });
    expect(res.status).toBe(202);
    expect(res.body.items).toEqual([{ id: expect.any(String), status: 'matched' }]);
    expect(await paymentOf(app, shop.apiKey, payment.id)).toMatchObject({ status: 'confirmed' });

    const huge = 'x'.repeat(2_000_000);
    expect((await request(app.baseUrl, 'POST', '/v1/device/messages/batch', { rawBody: huge, headers: { 'content-type': 'application/json' } })).status).toBe(401);
    expect((await request(app.baseUrl, 'POST', `/v1/device/hooks/dh_${'y'.repeat(40)}/batch`, { rawBody: huge })).status).toBe(401);
    const tooLarge = await request(app.baseUrl, 'POST', '/v1/device/messages/batch', { token: shop.deviceToken, rawBody: huge, headers: { 'content-type': 'application/json' } });
    expect(tooLarge.status).toBe(413);
  });
});
