import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_HEALTH_JOB } from '../../jobs/device-health.js';
import { reportOfflineDevices } from '../../src/domain/devices/transitions.js';
import { verifySignature } from '../../src/domain/webhooks/signature.js';
import { createPaymentRest, gqlOk, makeMerchant, makeProject, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

// The threshold is DEVICE_OFFLINE_SECONDS; a few seconds here instead of the default 5 minutes.
const OFFLINE_SECONDS = 3;

let app: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  app = await startTestApp({ env: { DEVICE_OFFLINE_SECONDS: String(OFFLINE_SECONDS) } });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

const SET_ENDPOINT = `mutation($p: ID!, $u: String!, $e: [String!]) { setWebhookEndpoint(projectId: $p, url: $u, events: $e) { secret endpoint { events } } }`;
const CREATE_CARD = `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`;
const DEVICE = `query($id: ID!) { node(id: $id) { ... on Device { lastSeenAt online } } }`;
const DEVICE_EVENTS = ['device.offline', 'device.online'];
const BODY_FIELDS = ['event', 'deviceId', 'projectIds', 'lastSeenAt', 'deliveryId', 'sentAt'];

const onPath = (path: string) => receiver.received.filter((r) => r.path === path);
async function waitOnPath(path: string, count: number, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (onPath(path).length < count) {
    if (Date.now() > until) throw new Error(`${path}: ${onPath(path).length} of ${count}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return onPath(path);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The app's health sweeps (jobs/device-health.ts) that started after `since` (the database's clock) and are done. */
async function sweepsDoneSince(since: Date): Promise<number> {
  const [row] = await app.deps.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${DEVICE_HEALTH_JOB} AND state = 'completed' AND started_on > ${since}`;
  return row!.n;
}
const dbNow = async () => (await app.deps.prisma.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS now`)[0]!.now;

async function setEndpoint(merchantKey: string, projectId: string, path: string, events?: string[]) {
  const set = await gqlOk(app.baseUrl, SET_ENDPOINT, { p: projectId, u: `${receiver.url}${path}`, e: events }, merchantKey);
  return set.setWebhookEndpoint as { secret: string; endpoint: { events: string[] } };
}

/**
 * A live project whose endpoint opted into the device events, and a second project of the same
 * merchant whose endpoint did not, each with a card on one phone. The phone is first seen once all
 * of that (and `beforeSeen`, given the merchant's key and the first project) is in place, so its
 * silence (and the threshold) starts when the set-up is done, however long that took.
 */
async function phoneOfTwoProjects(tag: string, beforeSeen?: (merchantKey: string, projectId: string) => Promise<void>) {
  const { merchantKey } = await makeMerchant(app, { credit: 10_000_000 });
  const [shop, other] = await Promise.all([makeProject(app, { merchantKey, sandbox: false }), makeProject(app, { merchantKey, sandbox: false })]);
  const made = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Phone" }) { token device { id } } }`, {}, merchantKey);
  const deviceId = made.createDevice.device.id as string;
  const deviceToken = made.createDevice.token as string;
  const [opted, defaults] = await Promise.all([
    setEndpoint(merchantKey, shop.projectId, `/${tag}/opted`, [...DEVICE_EVENTS, 'payment.confirmed']),
    setEndpoint(merchantKey, other.projectId, `/${tag}/default`),
    ...[shop, other].map((p, i) =>
      gqlOk(app.baseUrl, CREATE_CARD, { input: { projectId: p.projectId, deviceId, bankCode: 'mellat', cardNumber: '6104337812345678', holderName: `Shop ${i}` } }, merchantKey),
    ),
  ]);
  await beforeSeen?.(merchantKey, shop.projectId);
  await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: deviceToken });
  return { merchantKey, projectId: shop.projectId, deviceId, deviceToken, secret: opted.secret, otherProjectId: other.projectId, defaultEvents: defaults.endpoint.events };
}

const deviceOf = async (merchantKey: string, id: string) => (await gqlOk(app.baseUrl, DEVICE, { id }, merchantKey)).node as { lastSeenAt: string | null; online: boolean };

describe('device.offline and device.online', () => {
  // These two wait out the threshold together: their phones, projects and endpoints are their own.
  it.concurrent('given a silent phone with active cards, sends device.offline once and, when it is seen again, device.online once, signed, only to the endpoint that opted in', async ({ expect }) => {
    const shop = await phoneOfTwoProjects('flow');
    expect(shop.defaultEvents).toEqual(['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled', 'payment.refunded']);

    const [offline] = await waitOnPath('/flow/opted', 1);
    expect(offline!.headers['x-service-event']).toBe('device.offline');
    expect(verifySignature(String(offline!.headers['x-service-signature']), offline!.body, shop.secret)).toBe(true);
    expect(Object.keys(offline!.json)).toEqual(BODY_FIELDS);
    expect(offline!.json).toMatchObject({ event: 'device.offline', deviceId: shop.deviceId, projectIds: [shop.projectId, shop.otherProjectId].sort() });
    expect(offline!.headers['x-service-delivery']).toBe(offline!.json.deliveryId);
    const seen = await deviceOf(shop.merchantKey, shop.deviceId);
    expect(offline!.json.lastSeenAt).toBe(seen.lastSeenAt);
    expect(Date.now() - Date.parse(offline!.json.lastSeenAt)).toBeGreaterThanOrEqual(OFFLINE_SECONDS * 1000);

    await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.deviceToken });
    const [, online] = await waitOnPath('/flow/opted', 2);
    expect(online!.json).toMatchObject({ event: 'device.online', deviceId: shop.deviceId, projectIds: [shop.projectId, shop.otherProjectId].sort() });
    expect(online!.json.deliveryId).not.toBe(offline!.json.deliveryId);
    expect(verifySignature(String(online!.headers['x-service-signature']), online!.body, shop.secret)).toBe(true);
    expect(online!.json.lastSeenAt).toBe((await deviceOf(shop.merchantKey, shop.deviceId)).lastSeenAt);

    // Kept alive (a heartbeat well inside the threshold) across two whole sweeps: nothing more is
    // sent, and the other project's endpoint got nothing.
    const alive = await dbNow();
    for (const until = Date.now() + 20_000; (await sweepsDoneSince(alive)) < 2 && Date.now() < until; ) {
      await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.deviceToken });
      await sleep(500);
    }
    expect(await sweepsDoneSince(alive)).toBeGreaterThanOrEqual(2);
    expect(onPath('/flow/opted').map((r) => r.json.event)).toEqual(DEVICE_EVENTS);
    expect(onPath('/flow/default')).toEqual([]);
  });

  it.concurrent('given a phone with no active card, never reports it offline', async ({ expect }) => {
    // The idle phone (its one card switched off) is seen first, then the carded one.
    let idleId = '';
    const shop = await phoneOfTwoProjects('carded', async (merchantKey, projectId) => {
      const idle = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Idle" }) { token device { id } } }`, {}, merchantKey);
      idleId = idle.createDevice.device.id as string;
      await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: idle.createDevice.token });
      const card = await gqlOk(app.baseUrl, CREATE_CARD, { input: { projectId, deviceId: idleId, bankCode: 'mellat', cardNumber: '6104337812349999', holderName: 'Idle' } }, merchantKey);
      await gqlOk(app.baseUrl, `mutation($id: ID!) { updateCard(id: $id, input: { active: false }) { id } }`, { id: card.createCard.id }, merchantKey);
    });

    // Both phones fall silent; the carded one is reported, and a sweep that started once the idle one
    // was past the threshold too has run (the one that reported the carded phone, seen after it).
    await waitOnPath('/carded/opted', 1);
    const idleSeen = (await app.deps.prisma.device.findUniqueOrThrow({ where: { id: idleId } })).lastHeartbeatAt!;
    const idleSilent = new Date(idleSeen.getTime() + OFFLINE_SECONDS * 1000);
    await expect.poll(() => sweepsDoneSince(idleSilent), { interval: 100, timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    expect(await app.deps.prisma.deviceEvent.count({ where: { deviceId: idleId } })).toBe(0);
    expect((await app.deps.prisma.device.findUniqueOrThrow({ where: { id: idleId } })).offlineSince).toBeNull();
    expect((await deviceOf(shop.merchantKey, idleId)).online).toBe(false);
  });

  it('given sweeps running at once, reports a silent phone offline exactly once', async () => {
    const shop = await makeShop(app, { sandbox: false });
    const silentFor = new Date(Date.now() - OFFLINE_SECONDS * 1000 - 1_000);
    await app.deps.prisma.device.update({ where: { id: shop.deviceId! }, data: { lastHeartbeatAt: silentFor } });
    // The app's own sweep may be running too; whoever wins, one transition is recorded.
    await Promise.all([reportOfflineDevices(app.deps), reportOfflineDevices(app.deps), reportOfflineDevices(app.deps)]);
    expect(await app.deps.prisma.deviceEvent.count({ where: { deviceId: shop.deviceId!, type: 'device.offline' } })).toBe(1);
  });

  it('given an endpoint left at the default, a payment event still arrives and a device event does not', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 10_000_000 });
    await setEndpoint(shop.merchantKey, shop.projectId, '/payments-only');
    await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.deviceToken });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 60_000 })).body;
    expect((await request(app.baseUrl, 'POST', `/v1/payments/${p.id}/reject`, { token: shop.apiKey, body: { reason: 'test' } })).status).toBe(200);
    const [hit] = await waitOnPath('/payments-only', 1);
    expect(hit!.json.event).toBe('payment.rejected');
    await app.deps.prisma.device.update({ where: { id: shop.deviceId! }, data: { lastHeartbeatAt: new Date(Date.now() - OFFLINE_SECONDS * 1000 - 1_000) } });
    await reportOfflineDevices(app.deps);
    // The app's own sweep may hold the row at that moment (the sweep skips rows held elsewhere): it
    // reports it then. Either way, one device.offline.
    const events = () => app.deps.prisma.deviceEvent.count({ where: { deviceId: shop.deviceId! } });
    for (const until = Date.now() + 5_000; (await events()) === 0 && Date.now() < until; ) await sleep(100);
    expect(await events()).toBe(1);
    // A sweep that started after it finds nothing more to report.
    const reported = await dbNow();
    await expect.poll(() => sweepsDoneSince(reported), { interval: 100, timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    expect(await events()).toBe(1);
    expect(onPath('/payments-only').map((r) => r.json.event)).toEqual(['payment.rejected']);
  });

  it('given an endpoint that opted only into device events, sends it no payment event', async () => {
    const shop = await makeShop(app, { credit: 0 });
    await setEndpoint(shop.merchantKey, shop.projectId, '/devices-only', DEVICE_EVENTS);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 60_000 })).body;
    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
    expect(await app.deps.prisma.event.count({ where: { paymentId: p.id } })).toBe(1);
    expect(await app.deps.prisma.webhookDelivery.count({ where: { paymentId: p.id } })).toBe(0);
  });

  it('refuses an unknown event name, naming the field', async () => {
    const shop = await makeShop(app);
    const res = await request(app.baseUrl, 'POST', '/graphql', {
      token: shop.merchantKey,
      body: { query: SET_ENDPOINT, variables: { p: shop.projectId, u: `${receiver.url}/x`, e: ['device.exploded'] } },
    });
    expect(res.body.errors[0].extensions.code).toBe('invalid_request');
    expect(JSON.stringify(res.body.errors[0].extensions.details)).toContain('events');
  });
});
