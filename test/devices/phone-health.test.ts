import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportHealthChanges } from '../../src/domain/devices/health-sweep.js';
import { createPaymentRest, gqlOk, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';
import { liveShopWithHook, MELLAT_SENDER, postRaw } from './shop.js';

// Phone health (docs/forwarders.md "Phone health"): heartbeat telemetry from our body and the
// forwarder apps' bodies, refused fields that still mark the phone seen, and the health sweep's
// transitions with their opt-in events. The sweep is called directly (it is what the device-health
// job runs); rows are moved in time instead of waiting.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

type Shop = Awaited<ReturnType<typeof liveShopWithHook>>;
const DEVICE = `query($id: ID!) { node(id: $id) { ... on Device { battery charging network appVersion lastHeartbeatAt health healthEvents(first: 10) { edges { node { from to } } } } } }`;
const device = async (shop: Shop) => (await gqlOk(app.baseUrl, DEVICE, { id: shop.deviceId }, shop.merchantKey)).node;
const beat = (shop: Shop, body: unknown) => request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.deviceToken, body });
const unseen = (shop: Shop) => app.deps.prisma.device.update({ where: { id: shop.deviceId }, data: { lastHeartbeatAt: null } });
const sweep = () => reportHealthChanges(app.deps);
const healthOf = async (shop: Shop) => (await app.deps.prisma.device.findUniqueOrThrow({ where: { id: shop.deviceId } })).health;

async function optIn(shop: Shop, events: string[]) {
  await gqlOk(app.baseUrl, `mutation($p: ID!, $u: String!, $e: [String!]) { setWebhookEndpoint(projectId: $p, url: $u, events: $e) { secret } }`, { p: shop.projectId, u: 'https://shop.example.com/hooks', e: events }, shop.merchantKey);
}
/** The device's events of a type; the payload column is json, which Prisma hands back as text. */
async function deviceEvents(shop: Shop, type: string) {
  const rows = await app.deps.prisma.deviceEvent.findMany({ where: { deviceId: shop.deviceId, type }, include: { deliveries: true } });
  return rows.map((r) => ({ ...r, payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload }));
}

describe.concurrent('heartbeat telemetry', () => {
  it('our own body: battery, charging, network and app version are shown on the device', async () => {
    const shop = await liveShopWithHook(app);
    expect((await beat(shop, { battery: 80, charging: false, network: 'wifi', appVersion: '2.4.1' })).status).toBe(204);
    expect(await device(shop)).toMatchObject({ battery: 80, charging: false, network: 'wifi', appVersion: '2.4.1' });
    // A heartbeat without a field keeps the last reading of it.
    expect((await beat(shop, { battery: 79 })).status).toBe(204);
    expect(await device(shop)).toMatchObject({ battery: 79, charging: false, network: 'wifi' });
  });

  it('a field out of range is 400 naming it, and the heartbeat still marks the phone seen', async () => {
    const shop = await liveShopWithHook(app);
    for (const [body, field] of [
      [{ battery: 101 }, 'battery'],
      [{ battery: -1 }, 'battery'],
      [{ network: '5g' }, 'network'],
      [{ charging: 'yes' }, 'charging'],
      [{ appVersion: '' }, 'appVersion'],
    ] as const) {
      await unseen(shop);
      const res = await beat(shop, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(JSON.stringify(res.body.error)).toContain(field);
      expect((await device(shop)).lastHeartbeatAt, JSON.stringify(body)).not.toBeNull();
    }
    expect((await device(shop)).battery).toBeNull();
  });

  it('the forwarder apps’ bodies: a capcom6 ping’s health checks and an SmsForwarder template on the hook heartbeat', async () => {
    const shop = await liveShopWithHook(app);
    const ping = { id: 'p1', webhookId: 'w1', event: 'system:ping', deviceId: 'd1', payload: { health: { status: 'pass', checks: { 'battery:level': { observedValue: 64 }, 'battery:charging': { observedValue: 1 } } } } };
    expect((await request(app.baseUrl, 'POST', `/v1/device/hooks/${shop.hookSecret}`, { body: ping })).status).toBeLessThan(300);
    expect(await device(shop)).toMatchObject({ battery: 64, charging: true });
    const form = 'battery=12%25&charging=discharging&network=MOBILE&appVersion=3.3.0';
    expect((await postRaw(app, `/v1/device/hooks/${shop.hookSecret}/heartbeat`, form, { 'content-type': 'application/x-www-form-urlencoded' })).status).toBeLessThan(300);
    expect(await device(shop)).toMatchObject({ battery: 12, charging: false, network: 'mobile', appVersion: '3.3.0' });
    const bad = { ...ping, payload: { health: { checks: { 'battery:level': { observedValue: 140 } } } } };
    await unseen(shop);
    expect((await request(app.baseUrl, 'POST', `/v1/device/hooks/${shop.hookSecret}`, { body: bad })).status).toBe(400);
    expect((await device(shop)).lastHeartbeatAt).not.toBeNull();
  });
});

describe('one-tap set-up', () => {
  it('createDevice and issueDeviceHook answer the hook URL as an SVG QR code', async () => {
    const shop = await liveShopWithHook(app);
    const made = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "QR phone" }) { hookUrl setupQr } }`, {}, shop.merchantKey);
    expect(made.createDevice.setupQr).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const issued = await gqlOk(app.baseUrl, `mutation($id: ID!) { issueDeviceHook(id: $id) { hookUrl setupQr } }`, { id: shop.deviceId }, shop.merchantKey);
    expect(issued.issueDeviceHook.setupQr).toMatch(/^<svg/);
    // Another URL, another code.
    expect(issued.issueDeviceHook.setupQr).not.toBe(made.createDevice.setupQr);
  });
});

describe.concurrent('health transitions', () => {
  it('low battery and not charging is low_battery, with device.low_battery to an endpoint that opted in; charging makes it ok', async () => {
    const shop = await liveShopWithHook(app);
    await optIn(shop, ['device.low_battery']);
    await sweep();
    expect(await healthOf(shop)).toBe('ok');
    await beat(shop, { battery: 15, charging: false });
    await sweep();
    expect(await healthOf(shop)).toBe('low_battery');
    await sweep();
    const events = await deviceEvents(shop, 'device.low_battery');
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ event: 'device.low_battery', deviceId: shop.deviceId, battery: 15, charging: false });
    expect(events[0]!.deliveries).toHaveLength(1);
    await beat(shop, { charging: true });
    await sweep();
    const d = await device(shop);
    expect(d.health).toBe('ok');
    expect(d.healthEvents.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { from: 'low_battery', to: 'ok' },
      { from: 'ok', to: 'low_battery' },
      { from: 'offline', to: 'ok' },
    ]);
  });

  it('heartbeats but no bank SMS for 6 h while payments were made is silent (device.silent); a bank SMS makes it ok', async () => {
    const shop = await liveShopWithHook(app);
    await optIn(shop, ['device.silent']);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 271_000 })).body;
    await sweep();
    expect(await healthOf(shop)).toBe('ok');
    // Six hours and more without a bank SMS, a payment made an hour ago.
    await app.deps.prisma.device.update({ where: { id: shop.deviceId }, data: { createdAt: new Date(Date.now() - 7 * 3_600_000) } });
    await app.deps.prisma.$executeRaw`UPDATE payments SET created_at = now() - interval '1 hour' WHERE id = ${p.id}::uuid`;
    await sweep();
    expect(await healthOf(shop)).toBe('silent');
    const [event] = await deviceEvents(shop, 'device.silent');
    expect(event!.payload).toMatchObject({ event: 'device.silent', lastBankMessageAt: null });
    expect(event!.deliveries).toHaveLength(1);
    const sms = { sender: MELLAT_SENDER, body: mellatDeposit({ account: shop.account, amount: 5_000 }), receivedAt: new Date().toISOString() };
    expect((await request(app.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body: sms })).status).toBe(202);
    await sweep();
    expect(await healthOf(shop)).toBe('ok');
  });

  it('no heartbeat for five minutes is offline; the next heartbeat makes it ok', async () => {
    const shop = await liveShopWithHook(app);
    await sweep();
    await app.deps.prisma.device.update({ where: { id: shop.deviceId }, data: { lastHeartbeatAt: new Date(Date.now() - 6 * 60_000) } });
    await sweep();
    expect(await healthOf(shop)).toBe('offline');
    await beat(shop, {});
    await sweep();
    expect(await healthOf(shop)).toBe('ok');
  });
});
