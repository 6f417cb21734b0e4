import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlOk, makeMerchant, makeProject, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';
import { addSignedInUser, errorCode, gqlAs, USERS_ENV } from '../users/support.js';
import { confirmedPayment, setEndpoint, shopWithEndpoint } from './endpoint.js';

// docs/dashboard.md "Webhooks": the dashboard sends a test webhook for the
// project it shows. sendTestWebhook takes a project key (its own project) or, with `projectId`, a
// merchant credential; who may is decided as for the rest of webhook management: the merchant key
// and an owner, never staff or a viewer (403 forbidden). redeliverWebhook likewise.
let app: TestApp;
let receiver: Receiver;
/** A merchant with one sandbox project whose endpoint is the receiver's /shop. */
let shop: { merchantId: string; merchantKey: string; projectId: string; apiKey: string };
let owner: Awaited<ReturnType<typeof addSignedInUser>>;

const merchantIdOf = async (merchantKey: string): Promise<string> => (await gqlOk(app.baseUrl, `{ viewer { merchant { id } } }`, {}, merchantKey)).viewer.merchant.id;

beforeAll(async () => {
  app = await startTestApp({ env: USERS_ENV });
  receiver = await new Receiver().start();
  const merchant = await makeMerchant(app);
  const project = await makeProject(app, { merchantKey: merchant.merchantKey });
  await setEndpoint(app, { projectId: project.projectId, merchantKey: merchant.merchantKey }, `${receiver.url}/shop`);
  shop = { merchantId: merchant.merchantId, merchantKey: merchant.merchantKey, projectId: project.projectId, apiKey: project.apiKey };
  owner = await addSignedInUser(app, merchant.merchantId, 'owner');
});
afterAll(async () => {
  await receiver.stop();
  await app.stop();
});

const SEND = `mutation($p: ID) { sendTestWebhook(projectId: $p) { id test status eventType attempts { responseStatus } } }`;
const SEND_OWN = `mutation { sendTestWebhook { id test status } }`;
const REDELIVER = `mutation($d: ID!) { redeliverWebhook(deliveryId: $d) { id attemptCount attempts { manual } } }`;

/** A test delivery as the project's own log lists it (the project key reads it back). */
async function listedForProject(deliveryId: string): Promise<boolean> {
  const list = await gqlOk(app.baseUrl, `{ webhookDeliveries(first: 50) { edges { node { id test } } } }`, {}, shop.apiKey);
  return list.webhookDeliveries.edges.some((e: { node: { id: string; test: boolean } }) => e.node.id === deliveryId && e.node.test);
}

describe('sendTestWebhook by credential', () => {
  it('a project key: its own project without projectId, or with its own id', async () => {
    const own = await gqlOk(app.baseUrl, SEND_OWN, {}, shop.apiKey);
    expect(own.sendTestWebhook).toMatchObject({ test: true, status: 'succeeded' });
    const named = await gqlOk(app.baseUrl, SEND, { p: shop.projectId }, shop.apiKey);
    expect(named.sendTestWebhook).toMatchObject({ test: true, status: 'succeeded', eventType: 'payment.confirmed', attempts: [{ responseStatus: 200 }] });
  });

  it('a project key naming another project (of its merchant or not): not found, nothing sent', async () => {
    const sibling = await makeProject(app, { merchantKey: shop.merchantKey });
    const before = receiver.received.length;
    for (const p of [sibling.projectId, '2b0c5d61-6c0b-4a43-9e0e-3f1f3c7b1a10']) {
      const res = await gql(app.baseUrl, SEND, { p }, shop.apiKey);
      expect(errorCode(res), p).toBe('not_found');
      expect(res.data?.sendTestWebhook ?? null).toBeNull();
    }
    expect(receiver.received.length).toBe(before);
  });

  it('the merchant key: the project it names; without projectId a clear invalid_request', async () => {
    const sent = await gqlOk(app.baseUrl, SEND, { p: shop.projectId }, shop.merchantKey);
    expect(sent.sendTestWebhook).toMatchObject({ test: true, status: 'succeeded' });
    expect(await listedForProject(sent.sendTestWebhook.id)).toBe(true);

    const missing = await gql(app.baseUrl, SEND_OWN, {}, shop.merchantKey);
    expect(errorCode(missing)).toBe('invalid_request');
    expect(missing.errors![0]!.message).toMatch(/projectId/);
  });

  it('an owner’s dashboard session: the project it names, recorded in the audit log as the user’s', async () => {
    const sent = await gqlAs(app, owner.cookie, SEND, { p: shop.projectId });
    expect(sent.errors).toBeUndefined();
    expect(sent.data.sendTestWebhook).toMatchObject({ test: true, status: 'succeeded' });
    expect(await listedForProject(sent.data.sendTestWebhook.id)).toBe(true);
    const audit = await gqlOk(
      app.baseUrl,
      `query($s: ID) { auditEvents(first: 5, subjectId: $s) { edges { node { action projectId actor { kind id } } } } }`,
      { s: sent.data.sendTestWebhook.id },
      shop.merchantKey,
    );
    expect(audit.auditEvents.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { action: 'webhook_delivery.test_sent', projectId: shop.projectId, actor: { kind: 'user', id: owner.userId } },
    ]);
    const missing = await gqlAs(app, owner.cookie, SEND_OWN);
    expect(errorCode(missing)).toBe('invalid_request');
  });

  it('a viewer’s and a staff member’s session: 403 forbidden, nothing sent', async () => {
    const before = receiver.received.length;
    const users = await Promise.all((['viewer', 'staff'] as const).map(async (role) => ({ role, user: await addSignedInUser(app, shop.merchantId, role) })));
    for (const { role, user } of users) {
      const res = await gqlAs(app, user.cookie, SEND, { p: shop.projectId });
      expect(errorCode(res), role).toBe('forbidden');
      expect(res.data?.sendTestWebhook ?? null).toBeNull();
    }
    expect(receiver.received.length).toBe(before);
  });

  it('another merchant’s project: not found for its key and its owner, nothing sent', async () => {
    const other = await makeMerchant(app);
    const otherOwner = await addSignedInUser(app, other.merchantId, 'owner');
    const before = receiver.received.length;
    const byKey = await gql(app.baseUrl, SEND, { p: shop.projectId }, other.merchantKey);
    expect(errorCode(byKey)).toBe('not_found');
    const bySession = await gqlAs(app, otherOwner.cookie, SEND, { p: shop.projectId });
    expect(errorCode(bySession)).toBe('not_found');
    expect(receiver.received.length).toBe(before);
  });
});

describe('redeliverWebhook by credential', () => {
  it('the merchant key and an owner re-send the merchant’s deliveries; a viewer is forbidden, another merchant finds nothing', async () => {
    const paid = await shopWithEndpoint(app, `${receiver.url}/paid`);
    // Its owner and a viewer signed in while the payment's webhook goes out.
    const people = merchantIdOf(paid.merchantKey).then((id) => Promise.all([addSignedInUser(app, id, 'owner'), addSignedInUser(app, id, 'viewer')]));
    people.catch(() => undefined); // awaited below, where a failure fails the test
    await confirmedPayment(app, paid.apiKey);
    // The automatic attempt done first, so the manual ones are counted on their own.
    const q = `{ webhookDeliveries(status: succeeded, first: 1) { edges { node { id } } } }`;
    let deliveryId = '';
    await expect.poll(async () => {
      const list = await gqlOk(app.baseUrl, q, {}, paid.apiKey);
      deliveryId = list.webhookDeliveries.edges[0]?.node.id ?? '';
      return deliveryId;
    }, { timeout: 10_000 }).not.toBe('');

    const byKey = await gqlOk(app.baseUrl, REDELIVER, { d: deliveryId }, paid.merchantKey);
    expect(byKey.redeliverWebhook).toMatchObject({ attemptCount: 2, attempts: [{ manual: false }, { manual: true }] });
    const [paidOwner, viewer] = await people;
    const bySession = await gqlAs(app, paidOwner.cookie, REDELIVER, { d: deliveryId });
    expect(bySession.errors).toBeUndefined();
    expect(bySession.data.redeliverWebhook.attemptCount).toBe(byKey.redeliverWebhook.attemptCount + 1);

    expect(errorCode(await gqlAs(app, viewer.cookie, REDELIVER, { d: deliveryId }))).toBe('forbidden');
    expect(errorCode(await gql(app.baseUrl, REDELIVER, { d: deliveryId }, shop.merchantKey))).toBe('not_found');
    expect(errorCode(await gql(app.baseUrl, REDELIVER, { d: deliveryId }, shop.apiKey))).toBe('not_found');
  });
});
