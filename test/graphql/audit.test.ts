import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEndpointOutcome } from '../../src/domain/webhooks/health.js';
import { gql, gqlOk, makeMerchant, makeProject, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { runTs } from '../support/process.js';
import { Receiver } from '../support/receiver.js';

// The audit log (docs/dashboard.md "The audit log"): every change of keys, devices, cards, links,
// projects, webhook endpoints, credit and fees is one event, written with the change, readable
// through auditEvents by the merchant (all) and a project key (its project), refused as an edit by
// the database.

let app: TestApp;
let receiver: Receiver;
let merchant: { merchantId: string; merchantKey: string };

const AUDIT = `query($projectId: ID, $subjectId: ID, $first: Int, $after: String, $sandbox: Boolean) {
  auditEvents(projectId: $projectId, subjectId: $subjectId, first: $first, after: $after, sandbox: $sandbox) {
    edges { cursor node { id at actor { kind id label } action subjectType subjectId projectId note changes } }
    pageInfo { hasNextPage endCursor }
  }
}`;

type AuditNode = {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; label: string };
  action: string;
  subjectType: string;
  subjectId: string;
  projectId: string | null;
  note: string | null;
  changes: Record<string, { from: unknown; to: unknown }> | null;
};

async function auditEvents(token: string, vars: { projectId?: string; subjectId?: string; first?: number; after?: string; sandbox?: boolean } = {}): Promise<AuditNode[]> {
  const data = await gqlOk(app.baseUrl, AUDIT, { first: 100, ...vars }, token);
  return data.auditEvents.edges.map((e: { node: AuditNode }) => e.node);
}

/** The events about one object, oldest first (the log answers newest first). */
async function eventsAbout(subjectId: string, token = merchant.merchantKey): Promise<AuditNode[]> {
  return (await auditEvents(token, { subjectId })).reverse();
}

async function merchantKeyActor(m: { merchantId: string }) {
  const key = await app.deps.prisma.merchantKey.findFirstOrThrow({ where: { merchantId: m.merchantId } });
  return { kind: 'merchant_key', id: key.id, label: `${key.keyPrefix}…` };
}

const cli = (...args: string[]) => runTs('src/cli/index.ts', [...args, '--json'], testEnv(app.databaseUrl));

beforeAll(async () => {
  app = await startTestApp();
  receiver = await new Receiver().start();
  merchant = await makeMerchant(app, { credit: 100_000 });
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

describe('audit log: each change is one event', () => {
  it('records createProject as project.created and its first key as api_key.created, by the merchant key', async () => {
    const { projectId } = await makeProject(app, { merchantKey: merchant.merchantKey, settings: { displayName: 'Shop A' } });

    const [created] = await eventsAbout(projectId);
    const key = await app.deps.prisma.apiKey.findFirstOrThrow({ where: { projectId } });
    const [keyCreated] = await eventsAbout(key.id);

    const actor = await merchantKeyActor(merchant);
    expect(actor.label).toMatch(/^mk_[0-9A-Za-z]{4}…$/);
    expect(created).toMatchObject({ action: 'project.created', subjectType: 'project', projectId, actor, note: null });
    expect(created!.changes).toMatchObject({ name: { from: null, to: 'Shop' }, sandbox: { from: null, to: true }, displayName: { from: null, to: 'Shop A' } });
    expect(keyCreated).toMatchObject({ action: 'api_key.created', subjectType: 'api_key', projectId, actor, changes: { keyPrefix: { from: null, to: key.keyPrefix } } });
  });

  it('records updateProject with the fields that changed, from and to; an update that changes nothing records nothing', async () => {
    const { projectId } = await makeProject(app, { merchantKey: merchant.merchantKey });
    const update = `mutation($id: ID!, $input: UpdateProjectInput!) { updateProject(id: $id, input: $input) { id } }`;

    await gqlOk(app.baseUrl, update, { id: projectId, input: { displayName: 'Coffee', maxCode: 999, color: '#112233' } }, merchant.merchantKey);
    await gqlOk(app.baseUrl, update, { id: projectId, input: { displayName: 'Coffee' } }, merchant.merchantKey);

    const updates = (await eventsAbout(projectId)).filter((e) => e.action === 'project.updated');
    expect(updates).toHaveLength(1);
    expect(updates[0]!.changes).toEqual({ displayName: { from: null, to: 'Coffee' }, color: { from: null, to: '#112233' } });
  });

  it('records createApiKey and revokeApiKey, never the key itself', async () => {
    const { projectId } = await makeProject(app, { merchantKey: merchant.merchantKey });
    const issued = await gqlOk(app.baseUrl, `mutation($p: ID!) { createApiKey(projectId: $p) { key apiKey { id } } }`, { p: projectId }, merchant.merchantKey);
    const { key } = issued.createApiKey;
    const apiKeyId = issued.createApiKey.apiKey.id;

    await gqlOk(app.baseUrl, `mutation($id: ID!) { revokeApiKey(id: $id) { revoked } }`, { id: apiKeyId }, merchant.merchantKey);
    await gqlOk(app.baseUrl, `mutation($id: ID!) { revokeApiKey(id: $id) { revoked } }`, { id: apiKeyId }, merchant.merchantKey);

    const events = await eventsAbout(apiKeyId);
    expect(events.map((e) => [e.action, e.subjectType, e.projectId])).toEqual([
      ['api_key.created', 'api_key', projectId],
      ['api_key.revoked', 'api_key', projectId],
    ]);
    expect(JSON.stringify(events)).not.toContain(key);
  });

  it('records a device created, its hook issued and revoked, and the device revoked, merchant-wide (no project)', async () => {
    const created = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Pixel" }) { token hookSecret device { id } } }`, {}, merchant.merchantKey);
    const deviceId = created.createDevice.device.id;
    const hook = await gqlOk(app.baseUrl, `mutation($id: ID!) { issueDeviceHook(id: $id) { hookSecret } }`, { id: deviceId }, merchant.merchantKey);
    await gqlOk(app.baseUrl, `mutation($id: ID!) { revokeDeviceHook(id: $id) { id } }`, { id: deviceId }, merchant.merchantKey);
    await gqlOk(app.baseUrl, `mutation($id: ID!) { revokeDevice(id: $id) { id } }`, { id: deviceId }, merchant.merchantKey);

    const events = await eventsAbout(deviceId);
    expect(events.map((e) => e.action)).toEqual(['device.created', 'device.hook_issued', 'device.hook_revoked', 'device.revoked']);
    expect(events.every((e) => e.subjectType === 'device' && e.projectId === null)).toBe(true);
    expect(events[0]!.changes).toMatchObject({ name: { from: null, to: 'Pixel' } });
    const text = JSON.stringify(events);
    for (const secret of [created.createDevice.token, created.createDevice.hookSecret, hook.issueDeviceHook.hookSecret]) expect(text).not.toContain(secret);
  });

  it('records a card created and updated with its number masked to the last 4 digits', async () => {
    const { projectId } = await makeProject(app, { merchantKey: merchant.merchantKey });
    const card = await gqlOk(
      app.baseUrl,
      `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`,
      { input: { projectId, bankCode: 'mellat', cardNumber: '6104337812345678', accountNumber: '1234567890', holderName: 'Ali' } },
      merchant.merchantKey,
    );
    const cardId = card.createCard.id;
    await gqlOk(
      app.baseUrl,
      `mutation($id: ID!, $input: UpdateCardInput!) { updateCard(id: $id, input: $input) { id } }`,
      { id: cardId, input: { holderName: 'Ali Rezaei', cardNumber: '6037991122334455', dailyCountCap: 10 } },
      merchant.merchantKey,
    );

    const [created, updated] = await eventsAbout(cardId);
    expect(created).toMatchObject({ action: 'card.created', subjectType: 'card', projectId });
    expect(created!.changes).toMatchObject({ cardNumber: { from: null, to: '****5678' }, accountNumber: { from: null, to: '****7890' }, holderName: { from: null, to: 'Ali' } });
    expect(updated).toMatchObject({ action: 'card.updated', projectId });
    expect(updated!.changes).toEqual({
      holderName: { from: 'Ali', to: 'Ali Rezaei' },
      cardNumber: { from: '****5678', to: '****4455' },
      dailyCountCap: { from: null, to: 10 },
    });
    const text = JSON.stringify([created, updated]);
    expect(text).not.toContain('6104337812345678');
    expect(text).not.toContain('6037991122334455');
  });

  it('records a payment link created; a refused one (slug taken) records nothing', async () => {
    const { projectId } = await makeProject(app, { merchantKey: merchant.merchantKey });
    const q = `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { id } }`;
    const link = await gqlOk(app.baseUrl, q, { input: { projectId, slug: 'audit-beans', title: 'Beans', amount: 250000 } }, merchant.merchantKey);
    const again = await gql(app.baseUrl, q, { input: { projectId, slug: 'audit-beans', title: 'Other' } }, merchant.merchantKey);
    expect(again.errors?.[0]?.extensions.code).toBe('slug_taken');

    const events = (await auditEvents(merchant.merchantKey, { projectId })).filter((e) => e.subjectType === 'payment_link');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'payment_link.created', subjectId: link.createPaymentLink.id, changes: { slug: { from: null, to: 'audit-beans' }, amount: { from: null, to: '250000' } } });
  });

  it('records a webhook endpoint set, set again and its secret rotated, never a secret', async () => {
    const { projectId } = await makeProject(app, { merchantKey: merchant.merchantKey });
    const set = `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret endpoint { id } } }`;
    const first = await gqlOk(app.baseUrl, set, { p: projectId, u: 'https://hooks.example.com/a' }, merchant.merchantKey);
    const second = await gqlOk(app.baseUrl, set, { p: projectId, u: 'https://hooks.example.com/b' }, merchant.merchantKey);
    const rotated = await gqlOk(app.baseUrl, `mutation($p: ID!) { rotateWebhookSecret(projectId: $p) { secret } }`, { p: projectId }, merchant.merchantKey);

    const events = await eventsAbout(first.setWebhookEndpoint.endpoint.id);
    expect(events.map((e) => e.action)).toEqual(['webhook_endpoint.set', 'webhook_endpoint.set', 'webhook_endpoint.secret_rotated']);
    expect(events[0]!.changes).toMatchObject({ url: { from: null, to: 'https://hooks.example.com/a' }, active: { from: null, to: true } });
    expect(events[1]!.changes).toEqual({ url: { from: 'https://hooks.example.com/a', to: 'https://hooks.example.com/b' } });
    const text = JSON.stringify(events);
    for (const s of [first.setWebhookEndpoint.secret, second.setWebhookEndpoint.secret, rotated.rotateWebhookSecret.secret]) expect(text).not.toContain(s);
    expect(text).not.toMatch(/ciphertext/i);
  });

  it('records a test webhook sent by a project key as the project key’s', async () => {
    const { projectId, apiKey } = await makeProject(app, { merchantKey: merchant.merchantKey });
    await gqlOk(app.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: projectId, u: `${receiver.url}/audit` }, merchant.merchantKey);

    const sent = await gqlOk(app.baseUrl, `mutation { sendTestWebhook { id } }`, {}, apiKey);

    const key = await app.deps.prisma.apiKey.findFirstOrThrow({ where: { projectId } });
    const [event] = await eventsAbout(sent.sendTestWebhook.id, apiKey);
    expect(event).toMatchObject({
      action: 'webhook_delivery.test_sent',
      subjectType: 'webhook_delivery',
      projectId,
      actor: { kind: 'project_key', id: key.id, label: `${key.keyPrefix}…` },
    });
  });

  it('records a delivery re-sent by hand', async () => {
    const { projectId, apiKey } = await makeProject(app, { merchantKey: merchant.merchantKey });
    await gqlOk(app.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: projectId, u: `${receiver.url}/audit-resend` }, merchant.merchantKey);
    const sent = await gqlOk(app.baseUrl, `mutation { sendTestWebhook { id } }`, {}, apiKey);

    await gqlOk(app.baseUrl, `mutation($d: ID!) { redeliverWebhook(deliveryId: $d) { id } }`, { d: sent.sendTestWebhook.id }, apiKey);

    const events = await eventsAbout(sent.sendTestWebhook.id, apiKey);
    expect(events.map((e) => e.action)).toEqual(['webhook_delivery.test_sent', 'webhook_delivery.resent']);
    expect(events[1]).toMatchObject({ projectId, actor: { kind: 'project_key' } });
  });

  it('records the engine disabling an endpoint that failed for 5 days as the system’s', async () => {
    const { projectId } = await makeProject(app, { merchantKey: merchant.merchantKey });
    const set = await gqlOk(app.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { endpoint { id } } }`, { p: projectId, u: 'https://hooks.example.com/dead' }, merchant.merchantKey);
    const endpointId = set.setWebhookEndpoint.endpoint.id;
    await app.deps.prisma.webhookEndpoint.update({ where: { id: endpointId }, data: { failingSince: new Date(Date.now() - 6 * 24 * 3600_000) } });

    await app.deps.prisma.$transaction((tx) => recordEndpointOutcome(tx, endpointId, false, new Date()));

    const events = await eventsAbout(endpointId);
    expect(events.at(-1)).toMatchObject({ action: 'webhook_endpoint.disabled', actor: { kind: 'system', id: null, label: 'webhook health' }, projectId, changes: { active: { from: true, to: false } } });
  });
});

describe('audit log: who sees what', () => {
  let a: { projectId: string; apiKey: string };
  let b: { projectId: string; apiKey: string };
  let deviceId: string;

  beforeAll(async () => {
    a = await makeProject(app, { merchantKey: merchant.merchantKey });
    b = await makeProject(app, { merchantKey: merchant.merchantKey });
    const d = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Shared" }) { device { id } } }`, {}, merchant.merchantKey);
    deviceId = d.createDevice.device.id;
  });

  it('a project key sees its own project’s events only', async () => {
    const events = await auditEvents(a.apiKey);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.projectId === a.projectId)).toBe(true);
    expect(await auditEvents(a.apiKey, { subjectId: deviceId })).toEqual([]);
  });

  it('a project key asking for another project gets an empty list', async () => {
    expect(await auditEvents(a.apiKey, { projectId: b.projectId })).toEqual([]);
  });

  it('a merchant key sees every project’s events and the merchant-wide ones, or one project’s with projectId', async () => {
    const all = await auditEvents(merchant.merchantKey);
    expect(all.some((e) => e.projectId === a.projectId)).toBe(true);
    expect(all.some((e) => e.projectId === b.projectId)).toBe(true);
    expect(all.some((e) => e.subjectId === deviceId)).toBe(true);

    const onlyB = await auditEvents(merchant.merchantKey, { projectId: b.projectId });
    expect(onlyB.length).toBeGreaterThan(0);
    expect(onlyB.every((e) => e.projectId === b.projectId)).toBe(true);
  });

  it('sandbox keeps one side: its projects’ events and the merchant-wide ones', async () => {
    const live = await makeProject(app, { merchantKey: merchant.merchantKey, sandbox: false });
    const test = await auditEvents(merchant.merchantKey, { sandbox: true });
    expect(test.some((e) => e.projectId === a.projectId)).toBe(true);
    expect(test.some((e) => e.projectId === live.projectId)).toBe(false);
    expect(test.some((e) => e.subjectId === deviceId && e.projectId === null)).toBe(true);
    const liveSide = await auditEvents(merchant.merchantKey, { sandbox: false });
    expect(liveSide.some((e) => e.projectId === live.projectId)).toBe(true);
    expect(liveSide.some((e) => e.projectId === a.projectId || e.projectId === b.projectId)).toBe(false);
    expect(liveSide.some((e) => e.subjectId === deviceId)).toBe(true);
    // With a project of the other side: nothing.
    expect(await auditEvents(merchant.merchantKey, { projectId: live.projectId, sandbox: true })).toEqual([]);
  });

  it('another merchant sees none of it, by project, subject or cursor', async () => {
    const other = await makeMerchant(app, { name: 'Other' });
    const own = await auditEvents(other.merchantKey);
    expect(own.map((e) => e.action).sort()).toEqual(['merchant.created', 'merchant_key.created']);

    const foreign = (await auditEvents(merchant.merchantKey, { projectId: a.projectId }))[0]!;
    expect(await auditEvents(other.merchantKey, { projectId: a.projectId })).toEqual([]);
    expect(await auditEvents(other.merchantKey, { subjectId: deviceId })).toEqual([]);
    // The cursor Pothos gave the other merchant for its own event, made to name ours.
    const ownCursor: string = (await gqlOk(app.baseUrl, AUDIT, { first: 1 }, other.merchantKey)).auditEvents.edges[0].cursor;
    const forged = Buffer.from(Buffer.from(ownCursor, 'base64').toString('utf8').replace(own[0]!.id, foreign.id)).toString('base64');
    const page = await gqlOk(app.baseUrl, AUDIT, { after: forged }, other.merchantKey);
    expect(page.auditEvents.edges).toEqual([]);
    expect(await auditEvents(other.merchantKey, { projectId: 'not-a-uuid' })).toEqual([]);
  });

  it('lists newest first and pages with first and after', async () => {
    const all = await auditEvents(merchant.merchantKey);
    const times = all.map((e) => Date.parse(e.at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    const first = await gqlOk(app.baseUrl, AUDIT, { first: 2 }, merchant.merchantKey);
    const next = await gqlOk(app.baseUrl, AUDIT, { first: 2, after: first.auditEvents.pageInfo.endCursor }, merchant.merchantKey);
    expect(first.auditEvents.pageInfo.hasNextPage).toBe(true);
    expect([...first.auditEvents.edges, ...next.auditEvents.edges].map((e: { node: AuditNode }) => e.node.id)).toEqual(all.slice(0, 4).map((e) => e.id));
  });

  it('needs a merchant or project key', async () => {
    const anonymous = await gql(app.baseUrl, AUDIT, {});
    expect(anonymous.errors?.[0]?.extensions.code).toBe('unauthorized');
  });
});

describe('audit log: append-only in the database', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: app.databaseUrl });
    await client.connect();
  });
  afterAll(() => client.end());

  it('refuses UPDATE', async () => {
    await expect(client.query(`UPDATE audit_events SET note = 'edited'`)).rejects.toThrow(/append-only/);
  });

  it('refuses DELETE', async () => {
    await expect(client.query(`DELETE FROM audit_events`)).rejects.toThrow(/append-only/);
  });

  it('refuses TRUNCATE', async () => {
    await expect(client.query(`TRUNCATE audit_events`)).rejects.toThrow(/append-only/);
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM audit_events`);
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);
  });
});

// Each command is a process of its own; the tests run at once, the one that switches a merchant off on
// a merchant of its own.
describe.concurrent('audit log: operator CLI changes', { timeout: 120_000 }, () => {
  const operator = { kind: 'operator', id: null, label: 'operator CLI' };
  let m: { merchantId: string; merchantKey: string };
  let switched: { merchantId: string; merchantKey: string };
  let projectId: string;

  beforeAll(async () => {
    m = await makeMerchant(app, { name: 'Operated' });
    switched = await makeMerchant(app, { name: 'Switched' });
    ({ projectId } = await makeProject(app, { merchantKey: m.merchantKey }));
  });

  it('records merchant credit with the operator, its note and the balance from and to', async () => {
    expect((await cli('merchant', 'credit', '--id', m.merchantId, '--add', '70000', '--note', 'bank transfer 42')).code).toBe(0);

    const credit = (await eventsAbout(m.merchantId, m.merchantKey)).filter((e) => e.action === 'merchant.credit_added');
    expect(credit).toEqual([
      expect.objectContaining({ actor: operator, note: 'bank transfer 42', projectId: null, changes: { creditBalance: { from: '0', to: '70000' } } }),
    ]);
  });

  it('records a project fee and an operator suspension with the operator', async () => {
    expect((await cli('project', 'fee', '--id', projectId, '--bps', '250', '--min', '2000', '--max', '90000')).code).toBe(0);
    expect((await cli('project', 'deactivate', '--id', projectId)).code).toBe(0);

    const byOperator = (await eventsAbout(projectId, m.merchantKey)).filter((e) => e.actor.kind === 'operator');
    expect(byOperator.map((e) => e.action)).toEqual(['project.fee_set', 'project.suspended']);
    expect(byOperator[0]).toMatchObject({ actor: operator, projectId, changes: { feeBps: { from: 100, to: 250 }, feeMin: { from: '1000', to: '2000' }, feeMax: { from: '50000', to: '90000' } } });
  });

  it('records a merchant deactivated and activated again with the operator', async () => {
    expect((await cli('merchant', 'deactivate', '--id', switched.merchantId)).code).toBe(0);
    expect((await cli('merchant', 'activate', '--id', switched.merchantId)).code).toBe(0);

    const switches = (await eventsAbout(switched.merchantId, switched.merchantKey)).filter((e) => e.action.endsWith('activated'));
    expect(switches.map((e) => [e.action, e.actor.kind, e.changes])).toEqual([
      ['merchant.deactivated', 'operator', { active: { from: true, to: false } }],
      ['merchant.activated', 'operator', { active: { from: false, to: true } }],
    ]);
  });
});
