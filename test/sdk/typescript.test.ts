import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';
import { StandIn } from './stand-in.js';

/**
 * sdk/typescript (issue 39) against a real service: its types are what the served OpenAPI document
 * generates, it builds with its own TypeScript 5 to ESM with declarations (dist/ is built here and
 * in CI, never committed), and the built package does what its README promises.
 */

type Sdk = typeof import('../../sdk/typescript/src/index.js');

const run = promisify(execFile);
const SDK = path.resolve('sdk/typescript');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sdk-ts-'));

let app: TestApp;
let sdk: Sdk;
let shop: Awaited<ReturnType<typeof makeShop>>;
let receiver: Receiver;
const CALLBACK = 'https://shop.example.com/return';

async function buildSdk(): Promise<Sdk> {
  const tsc = path.join(SDK, 'node_modules/typescript/bin/tsc');
  if (!existsSync(tsc)) throw new Error('sdk/typescript has no node_modules: run `npm ci --prefix sdk/typescript` (.ci/run does)');
  await run(process.execPath, [tsc, '-p', path.join(SDK, 'tsconfig.json')]);
  return (await import(pathToFileURL(path.join(SDK, 'dist/index.js')).href)) as Sdk;
}

beforeAll(async () => {
  const started = startTestApp({ role: 'api' });
  const built = buildSdk();
  receiver = await new Receiver().start();
  app = await started;
  shop = await makeShop(app);
  sdk = await built;
});

afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
});

const gateway = (extra: Partial<ConstructorParameters<Sdk['Gateway']>[0]> = {}) =>
  new sdk.Gateway({ baseUrl: app.baseUrl, apiKey: shop.apiKey, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...extra });

/** Confirms a sandbox payment the way a deposit would. */
async function confirm(paymentId: string) {
  const res = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId, outcome: 'match' } });
  expect(res.status).toBe(200);
  expect(res.body.payment.status).toBe('confirmed');
}

describe('sdk/typescript package', () => {
  it('the committed types are what openapi-typescript generates from the document the service serves', async () => {
    const served = await request(app.baseUrl, 'GET', '/openapi.json');
    expect(served.status).toBe(200);
    const input = path.join(tmp, 'openapi.json');
    const output = path.join(tmp, 'openapi-types.ts');
    writeFileSync(input, served.text);
    await run(process.execPath, [path.join(SDK, 'scripts/generate.mjs'), '--input', input, '--output', output]);
    const committed = readFileSync(path.join(SDK, 'src/openapi-types.ts'), 'utf8');
    // The API changed: the SDK's types follow it (sdk/typescript/README.md, "Regenerating the types").
    const fix = `sdk/typescript/src/openapi-types.ts is stale: \`cp ${output} sdk/typescript/src/openapi-types.ts\` (or \`npm run generate --prefix sdk/typescript -- --input <served /openapi.json>\`), add a CHANGELOG line and commit`;
    expect(readFileSync(output, 'utf8'), fix).toBe(committed);
  });

  it('builds to ESM with declarations; its version follows the API major (1.x for /v1)', () => {
    const pkg = JSON.parse(readFileSync(path.join(SDK, 'package.json'), 'utf8'));
    expect(pkg.type).toBe('module');
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.devDependencies).toEqual({ 'openapi-typescript': '7.13.0', typescript: '5.9.3' });
    expect(pkg.version).toMatch(/^1\.\d+\.\d+$/);
    expect(sdk.SDK_VERSION).toBe(pkg.version);
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/openapi-types.d.ts']) expect(existsSync(path.join(SDK, file)), file).toBe(true);
    expect(readFileSync(path.join(SDK, 'dist/index.js'), 'utf8')).not.toMatch(/\brequire\(/);
  });
});

describe('payments', () => {
  it('create: a repeat with the same idempotency key returns the same payment; without a key each call is new', async () => {
    const gw = gateway();
    const body = { amount: 1_500_000, currency: 'IRR' as const, callbackUrl: CALLBACK, orderId: 'ts-1' };
    const first = await gw.payments.create(body, { idempotencyKey: 'ts-order-1' });
    const again = await gw.payments.create(body, { idempotencyKey: 'ts-order-1' });
    expect(first.status).toBe('pending');
    expect(first.checkoutUrl).toContain(`/pay/${first.token}`);
    expect(again).toEqual(first);
    const other = await gw.payments.create(body);
    expect(other.id).not.toBe(first.id);
    const got = await gw.payments.get(first.id);
    expect(got).toMatchObject({ id: first.id, orderId: 'ts-1', amountRequested: '1500000', status: 'pending' });
  });

  it('list answers one page; iterate walks every page', async () => {
    const gw = gateway();
    const orderId = 'ts-many';
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await gw.payments.create({ amount: 20_000 + i * 1000, callbackUrl: CALLBACK, orderId })).id);
    const page = await gw.payments.list({ orderId, pageSize: 2 });
    expect(page).toMatchObject({ page: 1, pageSize: 2, total: 5 });
    expect(page.items).toHaveLength(2);
    const all: string[] = [];
    for await (const p of gw.payments.iterate({ orderId, pageSize: 2 })) all.push(p.id);
    expect(all).toHaveLength(5);
    expect(new Set(all)).toEqual(new Set(made));
    expect(all).toEqual([...made].reverse()); // newest first
  });

  it('verify: a wrong amount throws amount_mismatch with its details; the right one verifies', async () => {
    const gw = gateway();
    const p = await gw.payments.create({ amount: 150_000, currency: 'IRT', callbackUrl: CALLBACK, orderId: 'ts-verify' });
    const pending = await gw.payments.verify(p.id, { amount: 150_000, currency: 'IRT' });
    expect(pending).toMatchObject({ verified: false, status: 'pending' });
    await confirm(p.id);
    const wrong = await gw.payments.verify(p.id, { amount: 150_000 }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(sdk.GatewayError);
    expect(wrong).toMatchObject({ status: 409, code: 'amount_mismatch', details: { amountRequested: '1500000', given: '150000' } });
    expect((wrong as Error).message).toBeTruthy();
    const right = await gw.payments.verify(p.id, { amount: 150_000, currency: 'IRT' });
    expect(right).toMatchObject({ id: p.id, verified: true, alreadyVerified: false, status: 'confirmed', orderId: 'ts-verify' });
    expect((await gw.payments.verify(p.id, { amount: '1500000' })).alreadyVerified).toBe(true);
  });

  it('reject: a pending payment ends rejected; rejecting it again is invalid_state', async () => {
    const gw = gateway();
    const p = await gw.payments.create({ amount: 30_000, callbackUrl: CALLBACK });
    const rejected = await gw.payments.reject(p.id, { reason: 'Out of stock' });
    expect(rejected).toMatchObject({ id: p.id, status: 'rejected' });
    await expect(gw.payments.reject(p.id)).rejects.toMatchObject({ status: 409, code: 'invalid_state', details: { status: 'rejected' } });
  });

  it('refunds: the same key twice records one refund; list shows it; too much is refund_exceeds_payment', async () => {
    const gw = gateway();
    const p = await gw.payments.create({ amount: 400_000, callbackUrl: CALLBACK, orderId: 'ts-refund' });
    await confirm(p.id);
    const body = { amount: '100000', destinationCard: '6037991234567893', reference: 'TRX-1', note: 'one book returned' };
    const first = await gw.payments.refunds.create(p.id, body, { idempotencyKey: 'ts-refund-1' });
    const again = await gw.refunds.create(p.id, body, { idempotencyKey: 'ts-refund-1' });
    expect(again).toEqual(first);
    expect(first).toMatchObject({ paymentId: p.id, amount: '100000', destinationCard: '************7893' });
    const list = await gw.payments.refunds.list(p.id);
    expect(list.items.map((r) => r.id)).toEqual([first.id]);
    await expect(gw.payments.refunds.create(p.id, { ...body, amount: '10000000' })).rejects.toMatchObject({ status: 409, code: 'refund_exceeds_payment' });
  });

  it('errors carry the envelope: status, code, message, details (fields), never hidden', async () => {
    const gw = gateway();
    const bad = await gw.payments.create({ amount: 500, callbackUrl: 'http://shop.example.com/return' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(sdk.GatewayError);
    const err = bad as InstanceType<Sdk['GatewayError']>;
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_request');
    expect(err.message).toBeTruthy();
    expect((err.details.fields as { field: string }[]).map((f) => f.field).sort()).toEqual(['amount', 'callbackUrl']);
    expect(err.body).toMatchObject({ error: { code: 'invalid_request' } });
    await expect(gw.payments.get('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(new sdk.Gateway({ baseUrl: app.baseUrl, apiKey: 'sk_test_nope' }).payments.list()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });
});

describe('retries', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await new StandIn(app.baseUrl).start();
  });
  afterAll(() => standIn?.stop());

  it('a dropped connection, a 503 and an answer lost after the work are retried with the same Idempotency-Key: one payment', async () => {
    standIn.setPlan(['drop', 503, 'forward-then-503', 'proxy']);
    const gw = gateway({ baseUrl: standIn.url });
    const created = await gw.payments.create({ amount: 1_234_560, callbackUrl: CALLBACK, orderId: 'ts-retry' });
    expect(standIn.seen).toHaveLength(4);
    const keys = new Set(standIn.seen.map((s) => s.key));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    const page = await gateway().payments.list({ orderId: 'ts-retry' });
    expect(page.total).toBe(1);
    expect(page.items[0]!.id).toBe(created.id);
  });

  it('a 429 is retried after its Retry-After, with the caller’s key; a refund retried so is recorded once', async () => {
    const gw = gateway();
    const p = await gw.payments.create({ amount: 250_000, callbackUrl: CALLBACK });
    await confirm(p.id);
    standIn.setPlan([429, 'forward-then-503', 'proxy']);
    const started = Date.now();
    const refund = await gateway({ baseUrl: standIn.url }).payments.refunds.create(p.id, { amount: '50000', destinationCard: '6037991234567893', reference: 'R-429' }, { idempotencyKey: 'ts-refund-429' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // Retry-After: 1 was waited out, not the 5 ms backoff
    expect(standIn.seen.map((s) => s.key)).toEqual(['ts-refund-429', 'ts-refund-429', 'ts-refund-429']);
    expect((await gw.payments.refunds.list(p.id)).items.map((r) => r.id)).toEqual([refund.id]);
  });

  it('idempotency_conflict is retried only after an unanswered attempt (which may still be running)', async () => {
    standIn.setPlan(['drop', 409, 409, 'proxy']);
    const created = await gateway({ baseUrl: standIn.url, retry: { maxRetries: 4, baseDelayMs: 1 } }).payments.create({ amount: 45_000, callbackUrl: CALLBACK, orderId: 'ts-409' });
    expect(standIn.seen).toHaveLength(4);
    expect(new Set(standIn.seen.map((s) => s.key)).size).toBe(1);
    expect((await gateway().payments.list({ orderId: 'ts-409' })).items.map((p) => p.id)).toEqual([created.id]);
    standIn.setPlan([409]);
    await expect(gateway({ baseUrl: standIn.url }).payments.create({ amount: 45_000, callbackUrl: CALLBACK })).rejects.toMatchObject({ status: 409, code: 'idempotency_conflict' });
    expect(standIn.seen).toHaveLength(1);
  });

  it('gives up after maxRetries with the last error, envelope intact; 4xx are not retried', async () => {
    standIn.setPlan([503, 503, 503]);
    const gw = gateway({ baseUrl: standIn.url, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    await expect(gw.payments.get('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 503, code: 'unavailable' });
    expect(standIn.seen).toHaveLength(3);
    standIn.seen.length = 0;
    await expect(gw.payments.get('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404 });
    expect(standIn.seen).toHaveLength(1);
  });

  it('tolerates what /v1 may add: an unknown field and enum value come through, a Deprecation header fails nothing', async () => {
    const p = await gateway().payments.create({ amount: 35_000, callbackUrl: CALLBACK });
    standIn.setPlan(['extend']);
    const notices: unknown[] = [];
    const later = await gateway({ baseUrl: standIn.url, onDeprecation: (n) => notices.push(n) }).payments.get(p.id);
    expect(notices).toEqual([{ route: 'GET /payments/{id}', deprecation: '@1796083200', sunset: 'Wed, 01 Dec 2027 00:00:00 GMT', link: undefined }]);
    expect(later).toMatchObject({ id: p.id, status: 'on_hold', addedLater: { nested: [1, 2] } });
    // Typed open (the typecheck of this file proves it): a status value added later is a PaymentStatus.
    const added: import('../../sdk/typescript/src/index.js').PaymentStatus = 'on_hold';
    expect(later.status).toBe(added);
    expect(later.addedLater).toEqual({ nested: [1, 2] });
  });

  it('a network error after every retry is GatewayError status 0 network_error', async () => {
    standIn.setPlan(['drop', 'drop']);
    const gw = gateway({ baseUrl: standIn.url, retry: { maxRetries: 1, baseDelayMs: 1 } });
    await expect(gw.payments.list()).rejects.toMatchObject({ name: 'GatewayError', status: 0, code: 'network_error' });
  });
});

describe('verifyWebhook, on a real delivery', () => {
  let delivery: { header: string; body: string; secret: string; t: number };

  beforeAll(async () => {
    const set = await gqlOk(
      app.baseUrl,
      `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`,
      { p: shop.projectId, u: `${receiver.url}/hooks` },
      shop.merchantKey,
    );
    await gqlOk(app.baseUrl, `mutation { sendTestWebhook { id } }`, {}, shop.apiKey);
    const [got] = await receiver.waitFor(1, 20_000);
    const header = String(got!.headers['x-service-signature']);
    delivery = { header, body: got!.body, secret: set.setWebhookEndpoint.secret, t: Number(/t=(\d+)/.exec(header)![1]) };
  });

  it('accepts the delivery (string or bytes) and returns the parsed event', async () => {
    const event = await sdk.verifyWebhook(delivery.body, delivery.header, delivery.secret);
    expect(event).toMatchObject({ event: 'payment.confirmed', status: 'confirmed', metadata: { test: true } });
    expect(event.deliveryId).toBeTruthy();
    expect(await sdk.verifyWebhook(new TextEncoder().encode(delivery.body), delivery.header, delivery.secret)).toEqual(event);
  });

  const refused = async (body: string, header: string | undefined, secret: string, opts?: { toleranceSeconds?: number; now?: number }) => {
    const e = await sdk.verifyWebhook(body, header, secret, opts).then(() => null, (err: unknown) => err);
    expect(e).toBeInstanceOf(sdk.WebhookSignatureError);
    return (e as InstanceType<Sdk['WebhookSignatureError']>).reason;
  };

  it('refuses a tampered body, a wrong secret, a stale or future timestamp, a missing or malformed header', async () => {
    expect(await refused(delivery.body.replace('confirmed', 'canceled'), delivery.header, delivery.secret)).toBe('signature_mismatch');
    expect(await refused(`${delivery.body} `, delivery.header, delivery.secret)).toBe('signature_mismatch');
    expect(await refused(delivery.body, delivery.header, 'whsec_not-the-secret')).toBe('signature_mismatch');
    expect(await refused(delivery.body, delivery.header, delivery.secret, { now: (delivery.t + 301) * 1000 })).toBe('timestamp_out_of_tolerance');
    expect(await refused(delivery.body, delivery.header, delivery.secret, { now: (delivery.t - 301) * 1000 })).toBe('timestamp_out_of_tolerance');
    expect(await refused(delivery.body, delivery.header, delivery.secret, { toleranceSeconds: 10, now: (delivery.t + 11) * 1000 })).toBe('timestamp_out_of_tolerance');
    expect(await sdk.verifyWebhook(delivery.body, delivery.header, delivery.secret, { toleranceSeconds: 10, now: (delivery.t + 9) * 1000 })).toBeTruthy();
    expect(await refused(delivery.body, undefined, delivery.secret)).toBe('missing_header');
    expect(await refused(delivery.body, 'v1=abc', delivery.secret)).toBe('malformed_header');
    expect(await refused(delivery.body, delivery.header.replace(/t=\d+/, 't=soon'), delivery.secret)).toBe('malformed_header');
  });

  it('checks before parsing: a body that is not JSON is refused for its signature, not for its syntax', async () => {
    expect(await refused('{not json', delivery.header, delivery.secret)).toBe('signature_mismatch');
    expect(await refused('{not json', delivery.header, delivery.secret, { now: (delivery.t + 999) * 1000 })).toBe('timestamp_out_of_tolerance');
  });

  it('during a rotation either v1 matches; an unknown event type and added fields come through', async () => {
    const t = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ event: 'payment.something_new', paymentId: 'x', newField: { nested: 1 }, deliveryId: 'd', sentAt: new Date().toISOString() });
    const sign = (secret: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    const header = `t=${t},v1=${sign('new-secret')},v1=${sign('old-secret')},v2=future-scheme`;
    expect(await sdk.verifyWebhook(body, header, 'old-secret')).toMatchObject({ event: 'payment.something_new', newField: { nested: 1 } });
    expect(await sdk.verifyWebhook(body, header, 'new-secret')).toBeTruthy();
    expect(await refused(body, header, 'third-secret')).toBe('signature_mismatch');
  });
});
