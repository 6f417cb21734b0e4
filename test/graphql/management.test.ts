import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { suspendProject } from '../../src/domain/projects/projects.js';
import { gql, gqlOk, makeMerchant, makeProject, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let mk: string;

const VIEWER = `{ viewer { kind project { id name sandbox } merchant { id credit { balance reserved available } projects { id } } } }`;

beforeAll(async () => {
  app = await startTestApp();
  ({ merchantKey: mk } = await makeMerchant(app, { credit: 250_000 }));
});
afterAll(() => app.stop());

describe('merchant management over GraphQL', () => {
  it('creates a sandbox project whose API key (sk_test_) sees the project as viewer', async () => {
    const data = await gqlOk(app.baseUrl, `mutation { createProject(input: { name: "Shop", sandbox: true }) { apiKey project { id sandbox maxCode paymentTimeLimitSeconds lateWindowSeconds autoConfirm feeBps feeMin feeMax } } }`, {}, mk);
    const { apiKey, project } = data.createProject;
    expect(apiKey).toMatch(/^sk_test_[0-9A-Za-z]{32,}$/);
    expect(project).toMatchObject({ sandbox: true, maxCode: 999, paymentTimeLimitSeconds: 900, lateWindowSeconds: 3600, autoConfirm: true, feeBps: 100, feeMin: '1000', feeMax: '50000' });
    const viewer = await gqlOk(app.baseUrl, VIEWER, {}, apiKey);
    expect(viewer.viewer).toEqual({ kind: 'project', project: { id: project.id, name: 'Shop', sandbox: true }, merchant: null });
  });

  it('issues sk_live_ keys for live projects', async () => {
    const data = await gqlOk(app.baseUrl, `mutation { createProject(input: { name: "Live" }) { apiKey project { sandbox } } }`, {}, mk);
    expect(data.createProject.apiKey).toMatch(/^sk_live_/);
    expect(data.createProject.project.sandbox).toBe(false);
  });

  it('shows the merchant its projects and credit as digit strings', async () => {
    const viewer = await gqlOk(app.baseUrl, VIEWER, {}, mk);
    expect(viewer.viewer.kind).toBe('merchant');
    expect(viewer.viewer.merchant.credit).toEqual({ balance: '250000', reserved: '0', available: '250000' });
    expect(viewer.viewer.merchant.projects.length).toBeGreaterThanOrEqual(1);
    const ledger = await gqlOk(app.baseUrl, `{ viewer { merchant { ledger(first: 5) { edges { node { kind amount balanceAfter } } } } } }`, {}, mk);
    expect(ledger.viewer.merchant.ledger.edges.map((e: any) => e.node)).toEqual([{ kind: 'topup', amount: '250000', balanceAfter: '250000' }]);
  });

  it('creates a device, a card on it, a payment link and a webhook endpoint', async () => {
    const { projectId } = await makeProject(app, { merchantKey: mk });
    const device = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Pixel" }) { token device { id } } }`, {}, mk);
    expect(device.createDevice.token).toMatch(/^dt_[0-9A-Za-z]{32,}$/);
    const card = await gqlOk(
      app.baseUrl,
      `mutation($input: CreateCardInput!) { createCard(input: $input) { id bankCode bankName cardNumber holderName deviceId dailyAmountCap dailyCountCap active } }`,
      { input: { projectId, deviceId: device.createDevice.device.id, bankCode: 'mellat', cardNumber: '۶۱۰۴-۳۳۷۸-۱۲۳۴-۵۶۷۸', holderName: 'Ali', dailyAmountCap: '۵۰۰۰۰۰۰۰', dailyCountCap: 20 } },
      mk,
    );
    expect(card.createCard).toMatchObject({ bankCode: 'mellat', bankName: 'بانک ملت', cardNumber: '6104337812345678', dailyAmountCap: '50000000', dailyCountCap: 20, active: true });
    const link = await gqlOk(
      app.baseUrl,
      `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { slug amount minAmount maxAmount } }`,
      { input: { projectId, slug: 'coffee-beans', title: 'Coffee', amount: 250000 } },
      mk,
    );
    expect(link.createPaymentLink).toEqual({ slug: 'coffee-beans', amount: '250000', minAmount: null, maxAmount: null });
    const hook = await gqlOk(
      app.baseUrl,
      `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret endpoint { url } } }`,
      { p: projectId, u: 'https://hooks.example.com/gateway' },
      mk,
    );
    expect(hook.setWebhookEndpoint.secret).toMatch(/^whsec_[0-9A-Za-z]{32,}$/);
    const stored = await app.deps.prisma.webhookEndpoint.findUniqueOrThrow({ where: { projectId } });
    expect(stored.secretCiphertext).not.toContain(hook.setWebhookEndpoint.secret);
    expect(app.deps.secrets.open(stored.secretCiphertext)).toBe(hook.setWebhookEndpoint.secret);
  });

  it('refuses a taken slug with slug_taken', async () => {
    const { projectId } = await makeProject(app, { merchantKey: mk });
    const q = `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { slug } }`;
    await gqlOk(app.baseUrl, q, { input: { projectId, slug: 'only-once', title: 'A' } }, mk);
    const again = await gql(app.baseUrl, q, { input: { projectId, slug: 'only-once', title: 'B' } }, mk);
    expect(again.errors?.[0]?.extensions.code).toBe('slug_taken');
  });

  it('rotates the webhook secret, keeping the previous one for 24 hours', async () => {
    const { projectId } = await makeProject(app, { merchantKey: mk });
    const set = await gqlOk(app.baseUrl, `mutation($p: ID!) { setWebhookEndpoint(projectId: $p, url: "https://h.example.com/x") { secret } }`, { p: projectId }, mk);
    const rotated = await gqlOk(app.baseUrl, `mutation($p: ID!) { rotateWebhookSecret(projectId: $p) { secret endpoint { previousSecretExpiresAt } } }`, { p: projectId }, mk);
    expect(rotated.rotateWebhookSecret.secret).not.toBe(set.setWebhookEndpoint.secret);
    const hours = (Date.parse(rotated.rotateWebhookSecret.endpoint.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const stored = await app.deps.prisma.webhookEndpoint.findUniqueOrThrow({ where: { projectId } });
    expect(app.deps.secrets.open(stored.previousSecretCiphertext!)).toBe(set.setWebhookEndpoint.secret);
  });

  it('validates inputs at their boundaries with invalid_request naming the field', async () => {
    const { projectId } = await makeProject(app, { merchantKey: mk });
    const update = (input: Record<string, unknown>) =>
      gql(app.baseUrl, `mutation($id: ID!, $input: UpdateProjectInput!) { updateProject(id: $id, input: $input) { id maxCode paymentTimeLimitSeconds lateWindowSeconds color } }`, { id: projectId, input }, mk);
    expect((await update({ maxCode: 1, paymentTimeLimitSeconds: 5, lateWindowSeconds: 0 })).data.updateProject).toMatchObject({ maxCode: 1, paymentTimeLimitSeconds: 5, lateWindowSeconds: 0 });
    expect((await update({ maxCode: 9999, paymentTimeLimitSeconds: 86400, lateWindowSeconds: 604800 })).errors).toBeUndefined();
    for (const [field, value] of [['maxCode', 0], ['maxCode', 10000], ['paymentTimeLimitSeconds', 4], ['paymentTimeLimitSeconds', 86401], ['lateWindowSeconds', -1], ['lateWindowSeconds', 604801], ['color', 'red']] as const) {
      const res = await update({ [field]: value });
      expect(res.errors?.[0]?.extensions.code, `${field}=${value}`).toBe('invalid_request');
      expect(res.errors?.[0]?.extensions.details.fields[0].field).toBe(field);
    }
    const card = await gql(app.baseUrl, `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`, { input: { projectId, bankCode: 'mellat', cardNumber: '123', holderName: 'A' } }, mk);
    expect(card.errors?.[0]?.extensions.details.fields).toEqual([{ field: 'cardNumber', message: 'must be 16 digits' }]);
  });

  it('requires a device for cards of live projects', async () => {
    const { projectId } = await makeProject(app, { merchantKey: mk, sandbox: false });
    const res = await gql(app.baseUrl, `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`, { input: { projectId, bankCode: 'saman', cardNumber: '6219861012345678', holderName: 'A' } }, mk);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'deviceId' }] } });
  });

  it('treats another merchant’s ids exactly like ids that do not exist', async () => {
    const mine = await makeProject(app, { merchantKey: mk });
    const other = await makeMerchant(app, { name: 'Other' });
    const q = `mutation($id: ID!) { updateProject(id: $id, input: { name: "x" }) { id } }`;
    const foreign = await gql(app.baseUrl, q, { id: mine.projectId }, other.merchantKey);
    const missing = await gql(app.baseUrl, q, { id: '00000000-0000-4000-8000-000000000000' }, other.merchantKey);
    expect(foreign.errors?.[0]?.extensions.code).toBe('not_found');
    expect(foreign.errors?.[0]?.message).toBe(missing.errors?.[0]?.message);
    const hook = await gql(app.baseUrl, `mutation($p: ID!) { setWebhookEndpoint(projectId: $p, url: "https://x.example.com") { secret } }`, { p: mine.projectId }, other.merchantKey);
    expect(hook.errors?.[0]?.extensions.code).toBe('not_found');
  });

  it('answers unauthorized to a project key on merchant mutations, and to no key at all', async () => {
    const { apiKey } = await makeProject(app, { merchantKey: mk });
    const asProject = await gql(app.baseUrl, `mutation { createDevice(input: { name: "x" }) { token } }`, {}, apiKey);
    expect(asProject.errors?.[0]?.extensions.code).toBe('unauthorized');
    const anonymous = await gql(app.baseUrl, VIEWER);
    expect(anonymous.errors?.[0]?.extensions.code).toBe('unauthorized');
    expect(anonymous.data.viewer).toBeNull();
  });

  it('revokes API keys: the revoked key is refused, a new one works', async () => {
    const { projectId, apiKey } = await makeProject(app, { merchantKey: mk });
    const fresh = await gqlOk(app.baseUrl, `mutation($p: ID!) { createApiKey(projectId: $p) { key apiKey { id } } }`, { p: projectId }, mk);
    const keys = await app.deps.prisma.apiKey.findMany({ where: { projectId }, orderBy: { createdAt: 'asc' } });
    await gqlOk(app.baseUrl, `mutation($id: ID!) { revokeApiKey(id: $id) { revoked } }`, { id: keys[0]!.id }, mk);
    expect((await gql(app.baseUrl, VIEWER, {}, apiKey)).errors?.[0]?.extensions.code).toBe('unauthorized');
    expect((await gqlOk(app.baseUrl, VIEWER, {}, fresh.createApiKey.key)).viewer.kind).toBe('project');
  });

  it('an operator suspension makes the project key 403 project_inactive, and the merchant cannot lift it', async () => {
    const { projectId, apiKey } = await makeProject(app, { merchantKey: mk });
    await suspendProject(app.deps, operatorActor, projectId);
    expect((await gql(app.baseUrl, VIEWER, {}, apiKey)).errors?.[0]?.extensions.code).toBe('project_inactive');
    const lifted = await gqlOk(app.baseUrl, `mutation($id: ID!) { updateProject(id: $id, input: { active: true }) { active suspended } }`, { id: projectId }, mk);
    expect(lifted.updateProject).toEqual({ active: true, suspended: true });
    expect((await gql(app.baseUrl, VIEWER, {}, apiKey)).errors?.[0]?.extensions.code).toBe('project_inactive');
  });

  it('the merchant’s own switch deactivates a project too', async () => {
    const { projectId, apiKey } = await makeProject(app, { merchantKey: mk });
    await gqlOk(app.baseUrl, `mutation($id: ID!) { updateProject(id: $id, input: { active: false }) { active } }`, { id: projectId }, mk);
    expect((await gql(app.baseUrl, VIEWER, {}, apiKey)).errors?.[0]?.extensions.code).toBe('project_inactive');
  });

  it('maps GraphQL validation and coercion failures to invalid_request', async () => {
    const wrongType = await gql(app.baseUrl, `mutation { createDevice(input: { name: 5 }) { token } }`, {}, mk);
    expect(wrongType.errors?.[0]?.extensions.code).toBe('invalid_request');
    const badVar = await gql(app.baseUrl, `mutation($n: Int!) { updateProject(id: "x", input: { maxCode: $n }) { id } }`, { n: 'ten' }, mk);
    expect(badVar.errors?.[0]?.extensions.code).toBe('invalid_request');
    const tooDeep = await gql(app.baseUrl, `{ viewer { merchant { projects { cards { id } apiKeys { id } } } } a1: viewer { kind } a2: viewer { kind } a3: viewer { kind } a4: viewer { kind } a5: viewer { kind } a6: viewer { kind } a7: viewer { kind } a8: viewer { kind } a9: viewer { kind } a10: viewer { kind } a11: viewer { kind } a12: viewer { kind } a13: viewer { kind } a14: viewer { kind } a15: viewer { kind } a16: viewer { kind } a17: viewer { kind } a18: viewer { kind } a19: viewer { kind } a20: viewer { kind } a21: viewer { kind } }`, {}, mk);
    expect(tooDeep.errors?.[0]?.extensions.code).toBe('invalid_request');
  });
});
