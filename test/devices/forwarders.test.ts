import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';
import { liveShopWithHook, MELLAT_SENDER, newPayment, paymentOf, postRaw } from './shop.js';

// Each app's body is built the way its source builds it (see src/domain/devices/forwarder-payloads.ts
// for the files): the same fields, value types, content type and headers.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

type Shop = Awaited<ReturnType<typeof liveShopWithHook>>;

/** A fresh shop, a payment, and the Mellat deposit SMS that pays it. */
async function depositFor() {
  const shop = await liveShopWithHook(app);
  const payment = await newPayment(app, shop.apiKey);
  const at = new Date(Date.now() - 30_000);
  return { shop, payment, at, sms: mellatDeposit({ account: shop.account, amount: payment.amountFinal, at }) };
}

async function expectMatched(shop: Shop, paymentId: string, res: { status: number; body: { id: string; status: string } }, stored: { body: string; receivedAt: Date }) {
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ id: expect.any(String), status: 'matched' });
  expect(await paymentOf(app, shop.apiKey, paymentId)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
  const message = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: res.body.id } });
  expect(message).toMatchObject({ deviceId: shop.deviceId, sender: MELLAT_SENDER, body: stored.body, receivedAt: stored.receivedAt, paymentId });
}

/** Java's SimpleDateFormat `yyyy-MM-dd'T'HH:mm:ss.SSSXXX` on a phone in Tehran (+03:30). */
function tehranIso(at: Date): string {
  return `${new Date(at.getTime() + 3.5 * 3600_000).toISOString().slice(0, 23)}+03:30`;
}

describe('pppscn/SmsForwarder', () => {
  it('default form body (from, content from the default template, timestamp in ms) with an Authorization header it was given', async () => {
    const { shop, payment, at, sms } = await depositFor();
    // MsgInfo.getContentForSend's default template: from, SMS, SIM, SubId, receive time, device name.
    const content = `${MELLAT_SENDER}\n${sms}\nSIM1_MCI_09121234567\nSubId：1\n2026-11-24 09:15:00\nShop phone`;
    const form = new URLSearchParams({ from: MELLAT_SENDER, content, timestamp: String(at.getTime()) }).toString();
    const res = await postRaw(app, '/v1/device/messages', form, { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${shop.deviceToken}` });
    await expectMatched(shop, payment.id, res, { body: sms, receivedAt: at });
  });

  it('JSON template with [org_content] and an offset [receive_time] posted to the hook URL', async () => {
    const { shop, payment, at, sms } = await depositFor();
    const timestamp = Date.now(); // the send time: receive_time, which carries an offset, wins
    const body = `{"from":"${MELLAT_SENDER}","content":${JSON.stringify(sms)},"timestamp":"${timestamp}","receive_time":"${tehranIso(at).replace(/\.\d{3}/, '')}","device_mark":"Shop phone"}`;
    const res = await postRaw(app, `/v1/device/hooks/${shop.hookSecret}`, body, { 'content-type': 'application/json; charset=utf-8' });
    await expectMatched(shop, payment.id, res, { body: sms, receivedAt: new Date(Math.floor(at.getTime() / 1000) * 1000) });
  });
});

describe('bogkonstantin/android_income_sms_gateway_webhook (Incoming SMS to URL forwarder)', () => {
  it('default JSON template (ms stamps as bare numbers) with its User-agent header and an Authorization header it was given', async () => {
    const { shop, payment, at, sms } = await depositFor();
    const body = `{\n  "from":"${MELLAT_SENDER}",\n  "text":${JSON.stringify(sms)},\n  "sentStamp":${at.getTime() - 2000},\n  "receivedStamp":${at.getTime()},\n  "sim":"sim1"\n}`;
    const headers = { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'SMS Forwarder App', authorization: `Bearer ${shop.deviceToken}` };
    const res = await postRaw(app, '/v1/device/messages', body, headers);
    await expectMatched(shop, payment.id, res, { body: sms, receivedAt: at });
  });

  it('the same body through the hook URL, stamps quoted as in older templates', async () => {
    const { shop, payment, at, sms } = await depositFor();
    const body = JSON.stringify({ from: MELLAT_SENDER, text: sms, sentStamp: String(at.getTime() - 2000), receivedStamp: String(at.getTime()), sim: 'sim1' });
    const res = await postRaw(app, `/v1/device/hooks/${shop.hookSecret}`, body, { 'content-type': 'application/json; charset=utf-8' });
    await expectMatched(shop, payment.id, res, { body: sms, receivedAt: at });
  });
});

describe('capcom6/android-sms-gateway (SMS Gateway for Android)', () => {
  const event = (name: string, payload: unknown) =>
    JSON.stringify({ deviceId: 'ffffffffceb0b1db0000018e937c815b', event: name, id: 'Ey6ECgOkVVFjz3CL48B8C', payload, webhookId: 'LreFUt-Z3sSq0JufY9uWB' });
  // It cannot set headers: it signs instead (X-Signature, X-Timestamp), so the hook URL is its credential.
  const headers = { 'content-type': 'application/json', 'user-agent': 'me.capcom.smsgateway/1.40.0', 'x-signature': 'ab'.repeat(32), 'x-timestamp': '1763961371' };

  it('sms:received through the hook URL', async () => {
    const { shop, payment, at, sms } = await depositFor();
    const payload = { messageId: 'abc123', message: sms, phoneNumber: MELLAT_SENDER, simNumber: 1, receivedAt: tehranIso(at) };
    const res = await postRaw(app, `/v1/device/hooks/${shop.hookSecret}`, event('sms:received', payload), headers);
    await expectMatched(shop, payment.id, res, { body: sms, receivedAt: at });
  });

  it('sms:batch:received answers like the batch route; system:ping is a heartbeat; other events are acknowledged, nothing stored', async () => {
    const { shop, payment, at, sms } = await depositFor();
    const messages = [{ messageId: 'm1', message: sms, phoneNumber: MELLAT_SENDER, simNumber: null, receivedAt: tehranIso(at) }];
    const batch = await postRaw(app, `/v1/device/hooks/${shop.hookSecret}`, event('sms:batch:received', { messages }), headers);
    expect(batch.status).toBe(202);
    expect(batch.body).toEqual({ items: [{ id: expect.any(String), status: 'matched' }] });
    expect(await paymentOf(app, shop.apiKey, payment.id)).toMatchObject({ status: 'confirmed' });

    await app.deps.prisma.device.update({ where: { id: shop.deviceId }, data: { lastHeartbeatAt: null } });
    const ping = await postRaw(app, `/v1/device/hooks/${shop.hookSecret}`, event('system:ping', { health: { status: 'pass' } }), headers);
    expect(ping.status).toBe(204);
    expect((await app.deps.prisma.device.findUniqueOrThrow({ where: { id: shop.deviceId } })).lastHeartbeatAt).not.toBeNull();

    const before = await app.deps.prisma.bankMessage.count({ where: { deviceId: shop.deviceId } });
    const sent = await postRaw(app, `/v1/device/hooks/${shop.hookSecret}`, event('sms:sent', { messageId: 'x', phoneNumber: '+989121234567', simNumber: 1, partsCount: 1, sentAt: tehranIso(new Date()) }), headers);
    expect(sent.status).toBe(204);
    expect(await app.deps.prisma.bankMessage.count({ where: { deviceId: shop.deviceId } })).toBe(before);
  });
});

describe('the hook URL', () => {
  const post = (secret: string, body: unknown) => request(app.baseUrl, 'POST', `/v1/device/hooks/${secret}`, { body });
  const smsBody = { sender: MELLAT_SENDER, body: 'hello', receivedAt: new Date().toISOString() };

  it('is shown once at createDevice, takes our own shape too, and a heartbeat with any body', async () => {
    const shop = await liveShopWithHook(app);
    const created = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Second" }) { hookSecret hookUrl device { id hookSecretPrefix } } }`, {}, shop.merchantKey);
    const { hookSecret, hookUrl, device } = created.createDevice;
    expect(hookSecret).toMatch(/^dh_[A-Za-z0-9]{40}$/);
    expect(hookUrl).toBe(`${app.deps.config.publicBaseUrl}/v1/device/hooks/${hookSecret}`);
    expect(hookSecret.startsWith(device.hookSecretPrefix)).toBe(true);
    const stored = await app.deps.prisma.device.findUniqueOrThrow({ where: { id: device.id } });
    expect(stored.hookSecretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(hookSecret);
    const own = await post(hookSecret, smsBody);
    expect(own.status).toBe(202);
    expect((await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: own.body.id } })).deviceId).toBe(device.id);
    const beat = await postRaw(app, `/v1/device/hooks/${hookSecret}/heartbeat`, 'ping from a monitor', { 'content-type': 'text/plain' });
    expect(beat.status).toBe(204);
  });

  it('is replaced by issueDeviceHook, ended by revokeDeviceHook and by revokeDevice: the old secret answers 401', async () => {
    const shop = await liveShopWithHook(app);
    const old = shop.hookSecret;
    const again = await gqlOk(app.baseUrl, `mutation($id: ID!) { issueDeviceHook(id: $id) { hookSecret } }`, { id: shop.deviceId }, shop.merchantKey);
    const fresh = again.issueDeviceHook.hookSecret as string;
    const refused = await post(old, smsBody);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
    expect((await post(fresh, smsBody)).status).toBe(202);

    await gqlOk(app.baseUrl, `mutation($id: ID!) { revokeDeviceHook(id: $id) { hookSecretPrefix } }`, { id: shop.deviceId }, shop.merchantKey);
    expect((await post(fresh, smsBody)).status).toBe(401);
    expect((await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.deviceToken })).status).toBe(204);

    const third = await gqlOk(app.baseUrl, `mutation($id: ID!) { issueDeviceHook(id: $id) { hookSecret } }`, { id: shop.deviceId }, shop.merchantKey);
    await gqlOk(app.baseUrl, `mutation($id: ID!) { revokeDevice(id: $id) { revoked hookSecretPrefix } }`, { id: shop.deviceId }, shop.merchantKey);
    expect((await post(third.issueDeviceHook.hookSecret, smsBody)).status).toBe(401);
    expect((await postRaw(app, `/v1/device/hooks/dh_${'x'.repeat(40)}`, 'not json', { 'content-type': 'application/json' })).status).toBe(401);
  });

  it('names the app’s own field when its body is incomplete', async () => {
    const shop = await liveShopWithHook(app);
    const res = await post(shop.hookSecret, { event: 'sms:received', deviceId: 'd', payload: { messageId: 'm', phoneNumber: MELLAT_SENDER } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['payload.message']);
  });
});
