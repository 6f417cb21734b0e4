import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';
import { liveShopWithHook, MELLAT_SENDER, newPayment, paymentOf, postRaw } from './shop.js';

// Issue 34 item 6: a device body that names a key twice is read by JSON.parse as its last value, so
// `{"sender": <a phone>, …, "sender": <the bank>}` confirmed a payment. Every device route refuses
// such a body: 400 invalid_json with details.key, nothing stored (docs/security.md).
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const PERSONAL = '+989121234567';
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/** A live shop with a hook URL, a pending payment and the genuine Mellat SMS that would pay it. */
async function shopWithDeposit() {
  const shop = await liveShopWithHook(app);
  const payment = await newPayment(app, shop.apiKey);
  const sms = mellatDeposit({ account: shop.account, amount: payment.amountFinal });
  return { shop, payment, sms };
}

/** One SMS as JSON text whose `sender` is given twice: a personal number first, the bank's last. */
function twoSenders(sms: string, receivedAt = new Date().toISOString()): string {
  return `{"sender": ${JSON.stringify(PERSONAL)}, "body": ${JSON.stringify(sms)}, "receivedAt": ${JSON.stringify(receivedAt)}, "sender": ${JSON.stringify(MELLAT_SENDER)}}`;
}

async function expectRefused(res: { status: number; body: any }, key: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('invalid_json');
  expect(res.body.error.details).toEqual({ key });
}

const storedFor = (deviceId: string) => app.deps.prisma.bankMessage.count({ where: { deviceId } });

describe.concurrent('a device body that repeats a key is refused, nothing stored', () => {
  it('POST /v1/device/messages: the sender given twice', async () => {
    const { shop, payment, sms } = await shopWithDeposit();
    const res = await postRaw(app, '/v1/device/messages', twoSenders(sms), { ...JSON_TYPE, authorization: `Bearer ${shop.deviceToken}` });
    await expectRefused(res, 'sender');
    expect(await storedFor(shop.deviceId)).toBe(0);
    expect(await paymentOf(app, shop.apiKey, payment.id)).toMatchObject({ status: 'pending' });
    // The same SMS said once is taken as before.
    const once = await request(app.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body: { sender: MELLAT_SENDER, body: sms, receivedAt: new Date().toISOString() } });
    expect(once.body.status).toBe('matched');
  });

  it('a key spelled with an escape (`"\\u0073ender"`) is the same key', async () => {
    const { shop, sms } = await shopWithDeposit();
    const body = `{"sender": "${PERSONAL}", "body": ${JSON.stringify(sms)}, "receivedAt": "${new Date().toISOString()}", "\\u0073ender": "${MELLAT_SENDER}"}`;
    await expectRefused(await postRaw(app, '/v1/device/messages', body, { ...JSON_TYPE, authorization: `Bearer ${shop.deviceToken}` }), 'sender');
    expect(await storedFor(shop.deviceId)).toBe(0);
  });

  it('POST /v1/device/messages/batch: a repeat inside one message of the list refuses the whole batch', async () => {
    const { shop, payment, sms } = await shopWithDeposit();
    const fine = JSON.stringify({ sender: MELLAT_SENDER, body: 'حساب1111111111\nبرداشت1,000\n04/07/15-08:42', receivedAt: new Date().toISOString() });
    const body = `{"messages": [${fine}, ${twoSenders(sms)}]}`;
    const res = await postRaw(app, '/v1/device/messages/batch', body, { ...JSON_TYPE, authorization: `Bearer ${shop.deviceToken}` });
    await expectRefused(res, 'sender');
    expect(await storedFor(shop.deviceId)).toBe(0);
    expect(await paymentOf(app, shop.apiKey, payment.id)).toMatchObject({ status: 'pending' });
  });

  it('POST /v1/device/messages/batch: `messages` itself given twice', async () => {
    const { shop, sms } = await shopWithDeposit();
    const one = JSON.stringify({ sender: MELLAT_SENDER, body: sms, receivedAt: new Date().toISOString() });
    const res = await postRaw(app, '/v1/device/messages/batch', `{"messages": [], "messages": [${one}]}`, { ...JSON_TYPE, authorization: `Bearer ${shop.deviceToken}` });
    await expectRefused(res, 'messages');
    expect(await storedFor(shop.deviceId)).toBe(0);
  });

  it('POST /v1/device/hooks/{secret}: a forwarder app body with a repeat deep inside (`payload.message`)', async () => {
    const { shop, payment, sms } = await shopWithDeposit();
    // An SMS Gateway for Android event: the body the app sends, with the SMS text given twice.
    const body = `{"event": "sms:received", "payload": {"message": "hello", "phoneNumber": "${MELLAT_SENDER}", "receivedAt": "${new Date().toISOString()}", "message": ${JSON.stringify(sms)}}}`;
    const res = await postRaw(app, `/v1/device/hooks/${shop.hookSecret}`, body, JSON_TYPE);
    await expectRefused(res, 'message');
    expect(await storedFor(shop.deviceId)).toBe(0);
    expect(await paymentOf(app, shop.apiKey, payment.id)).toMatchObject({ status: 'pending' });
  });

  it('POST /v1/device/hooks/{secret}: the plain body with the sender given twice', async () => {
    const { shop, payment, sms } = await shopWithDeposit();
    await expectRefused(await postRaw(app, `/v1/device/hooks/${shop.hookSecret}`, twoSenders(sms), JSON_TYPE), 'sender');
    expect(await storedFor(shop.deviceId)).toBe(0);
    expect(await paymentOf(app, shop.apiKey, payment.id)).toMatchObject({ status: 'pending' });
  });

  it('POST /v1/device/hooks/{secret}/batch: a nested repeat', async () => {
    const { shop, sms } = await shopWithDeposit();
    const res = await postRaw(app, `/v1/device/hooks/${shop.hookSecret}/batch`, `{"messages": [${twoSenders(sms)}]}`, JSON_TYPE);
    await expectRefused(res, 'sender');
    expect(await storedFor(shop.deviceId)).toBe(0);
  });

  it('JSON in another charset than UTF-8 cannot be checked the way it is read: 415, nothing stored', async () => {
    const { shop, sms } = await shopWithDeposit();
    for (const charset of ['utf-16', 'utf-16be', 'utf-32']) {
      const res = await postRaw(app, '/v1/device/messages', twoSenders(sms), { 'content-type': `application/json; charset=${charset}`, authorization: `Bearer ${shop.deviceToken}` });
      expect(res.status, charset).toBe(415);
      expect(res.body.error.code).toBe('unsupported_media_type');
    }
    expect(await storedFor(shop.deviceId)).toBe(0);
  });

  it('POST /v1/device/heartbeat and /v1/device/hooks/{secret}/heartbeat: a JSON body with a repeat is refused', async () => {
    const { shop } = await shopWithDeposit();
    await expectRefused(await postRaw(app, '/v1/device/heartbeat', '{"battery": {"level": 80, "level": 81}}', { ...JSON_TYPE, authorization: `Bearer ${shop.deviceToken}` }), 'level');
    await expectRefused(await postRaw(app, `/v1/device/hooks/${shop.hookSecret}/heartbeat`, '{"a": 1, "a": 2}', JSON_TYPE), 'a');
    // Whatever else a monitor sends to the hook heartbeat (text, JSON said once) is still taken.
    expect((await postRaw(app, `/v1/device/hooks/${shop.hookSecret}/heartbeat`, '{"a": 1, "b": {"a": 2}}', JSON_TYPE)).status).toBe(204);
    expect((await postRaw(app, `/v1/device/hooks/${shop.hookSecret}/heartbeat`, 'ping', { 'content-type': 'text/plain' })).status).toBe(204);
    expect((await postRaw(app, '/v1/device/heartbeat', '{"a": {"b": 1}, "b": {"b": 2}}', { ...JSON_TYPE, authorization: `Bearer ${shop.deviceToken}` })).status).toBe(204);
  });
});
