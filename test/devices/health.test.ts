import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createPaymentRest, gqlOk, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';
import { liveShopWithHook, MELLAT_SENDER } from './shop.js';

// DEVICE_OFFLINE_SECONDS: "seen" is stamped at most once per a tenth of it (400 ms here).
const OFFLINE_SECONDS = 4;
const STAMP_MS = 400;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ env: { DEVICE_OFFLINE_SECONDS: String(OFFLINE_SECONDS) } });
});
afterAll(async () => {
  await app.stop();
});

type Health = { lastSeenAt: string | null; lastMessageAt: string | null; online: boolean };
const DEVICE = `query($id: ID!) { node(id: $id) { ... on Device { lastSeenAt lastMessageAt online } } }`;
const health = async (shop: { merchantKey: string; deviceId: string }) => (await gqlOk(app.baseUrl, DEVICE, { id: shop.deviceId }, shop.merchantKey)).node as Health;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sms = (account: string) => ({ sender: MELLAT_SENDER, body: mellatDeposit({ account, amount: 123_000 }), receivedAt: new Date().toISOString() });

describe('device health', () => {
  it('given a heartbeat only, lastSeenAt is set, lastMessageAt is null and the device is online', async () => {
    const shop = await liveShopWithHook(app);
    const h = await health(shop);
    expect(h.lastSeenAt).not.toBeNull();
    expect(h.lastMessageAt).toBeNull();
    expect(h.online).toBe(true);
  });

  it('when the phone posts an SMS, lastSeenAt and lastMessageAt both move', async () => {
    const shop = await liveShopWithHook(app);
    const before = await health(shop);
    await sleep(STAMP_MS + 100);
    expect((await request(app.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body: sms(shop.account) })).status).toBe(202);
    const after = await health(shop);
    expect(Date.parse(after.lastSeenAt!)).toBeGreaterThan(Date.parse(before.lastSeenAt!));
    expect(after.lastMessageAt).not.toBeNull();
    expect(Math.abs(Date.parse(after.lastMessageAt!) - Date.now())).toBeLessThan(5_000);
  });

  it('when the phone posts a batch through its hook URL, lastMessageAt moves; a hook heartbeat moves only lastSeenAt', async () => {
    const shop = await liveShopWithHook(app);
    await sleep(STAMP_MS + 100);
    const res = await request(app.baseUrl, 'POST', `/v1/device/hooks/${shop.hookSecret}/batch`, { body: { messages: [sms(shop.account)] } });
    expect(res.status).toBe(202);
    const afterBatch = await health(shop);
    expect(afterBatch.lastMessageAt).not.toBeNull();
    await sleep(STAMP_MS + 100);
    expect((await request(app.baseUrl, 'POST', `/v1/device/hooks/${shop.hookSecret}/heartbeat`)).status).toBeLessThan(300);
    const afterPing = await health(shop);
    expect(Date.parse(afterPing.lastSeenAt!)).toBeGreaterThan(Date.parse(afterBatch.lastSeenAt!));
    expect(afterPing.lastMessageAt).toBe(afterBatch.lastMessageAt);
  });

  it('when the phone sends a body that is refused, it still counts as seen', async () => {
    const shop = await liveShopWithHook(app);
    const before = await health(shop);
    await sleep(STAMP_MS + 100);
    expect((await request(app.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body: { sender: 'x' } })).status).toBe(400);
    expect(Date.parse((await health(shop)).lastSeenAt!)).toBeGreaterThan(Date.parse(before.lastSeenAt!));
  });

  it('when a forwarder app pings the message route, the phone is seen and lastMessageAt stays', async () => {
    const shop = await liveShopWithHook(app);
    const before = await health(shop);
    await sleep(STAMP_MS + 100);
    const ping = { id: 'p1', webhookId: 'w1', event: 'system:ping', deviceId: 'd1', payload: {} };
    expect((await request(app.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body: ping })).status).toBeLessThan(300);
    const after = await health(shop);
    expect(Date.parse(after.lastSeenAt!)).toBeGreaterThan(Date.parse(before.lastSeenAt!));
    expect(after.lastMessageAt).toBeNull();
  });

  it('given requests closer together than the stamp interval, writes lastSeenAt once', async () => {
    const shop = await liveShopWithHook(app);
    await sleep(STAMP_MS + 100);
    await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.deviceToken });
    const first = await health(shop);
    await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.deviceToken });
    expect((await health(shop)).lastSeenAt).toBe(first.lastSeenAt);
  });

  it('given a phone silent past DEVICE_OFFLINE_SECONDS, online is false and card choice answers 503 device_offline; one request later both agree again', async () => {
    const shop = await liveShopWithHook(app);
    await sleep(OFFLINE_SECONDS * 1000 + 300);
    expect((await health(shop)).online).toBe(false);
    const refused = await createPaymentRest(app, shop.apiKey, { amount: 100_000 });
    expect(refused.status).toBe(503);
    expect(refused.body.error.details.reasons).toContain('device_offline');

    await request(app.baseUrl, 'POST', `/v1/device/hooks/${shop.hookSecret}/heartbeat`);
    expect((await health(shop)).online).toBe(true);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 100_000 })).status).toBe(201);
  });

  it('DEVICE_OFFLINE_SECONDS defaults to 300 and a bad value names the variable', () => {
    expect(loadConfig({}).deviceOfflineSeconds).toBe(300);
    expect(() => loadConfig({ DEVICE_OFFLINE_SECONDS: '0' })).toThrow(/DEVICE_OFFLINE_SECONDS/);
    expect(() => loadConfig({ DEVICE_OFFLINE_SECONDS: 'soon' })).toThrow(/DEVICE_OFFLINE_SECONDS/);
  });
});
