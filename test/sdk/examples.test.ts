import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { fencedBlocks } from '../docs/doctest.js';
import { gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

/**
 * The SDK examples of docs/examples (issue 39), run as shops against a real service with its
 * worker (the webhooks are the service's own deliveries): the TypeScript shop on the built SDK
 * (typechecked with the SDK's TypeScript 5 first), the plain-PHP page under `php -S`; the Laravel
 * controller, which needs Laravel to run, is linted. docs/integration.md shows their parts: each of
 * its `ts|php doctest=sdk` blocks must be a verbatim piece of one of them.
 */

const run = promisify(execFile);
const ROOT = path.resolve('.');
const SDK = path.join(ROOT, 'sdk/typescript');
const EXAMPLES = path.join(ROOT, 'docs/examples');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sdk-examples-'));

let app: TestApp;
const children: ChildProcess[] = [];

/** The SDK built into a scratch node_modules (not sdk/typescript/dist, which another test file builds). */
async function installSdk(): Promise<void> {
  const pkg = path.join(tmp, 'node_modules/@cardgateway/sdk');
  mkdirSync(pkg, { recursive: true });
  copyFileSync(path.join(SDK, 'package.json'), path.join(pkg, 'package.json'));
  await run(process.execPath, [path.join(SDK, 'node_modules/typescript/bin/tsc'), '-p', path.join(SDK, 'tsconfig.json'), '--outDir', path.join(pkg, 'dist')]);
  writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  copyFileSync(path.join(EXAMPLES, 'sdk-shop.ts'), path.join(tmp, 'sdk-shop.ts'));
  writeFileSync(
    path.join(tmp, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true,
        allowImportingTsExtensions: true, erasableSyntaxOnly: true, typeRoots: [path.join(ROOT, 'node_modules/@types')], types: ['node'],
      },
      files: ['sdk-shop.ts'],
    }),
  );
}

let typechecked: Promise<unknown>;

beforeAll(async () => {
  const installed = installSdk();
  app = await startTestApp();
  await installed;
  // Runs while the shops' stories run; the TypeScript shop's test waits for it at its end.
  typechecked = run(process.execPath, [path.join(SDK, 'node_modules/typescript/bin/tsc'), '-p', path.join(tmp, 'tsconfig.json')]).catch((e: { stdout: string }) => {
    throw new Error(`docs/examples/sdk-shop.ts does not typecheck:\n${e.stdout}`);
  });
  typechecked.catch(() => undefined); // reported by its test
});

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await app?.stop();
});

type Shop = { url: string; output: () => string };

/** Asks `check` again, one call at a time, until it says yes (or `timeoutMs` has passed). */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A shop process on a free port, its endpoint set to its webhook route; returns once it answers. */
async function startShop(command: string, args: (port: number) => string[], cwd: string, env: Record<string, string>): Promise<Shop & { apiKey: string }> {
  const shop = await makeShop(app);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const set = await gqlOk(
    app.baseUrl,
    `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`,
    { p: shop.projectId, u: `${url}/hooks/gateway` },
    shop.merchantKey,
  );
  const child = spawn(command, args(port), {
    cwd,
    env: { ...process.env, ...env, GATEWAY: app.baseUrl, API_KEY: shop.apiKey, WEBHOOK_SECRET: set.setWebhookEndpoint.secret, SHOP_URL: 'https://shop.example.com', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await until(async () => child.exitCode !== null || (await fetch(`${url}/orders/none`).then(() => true)), 30_000, `${command} shop to answer\n${output}`);
  expect(child.exitCode, output).toBeNull();
  return { url, output: () => output, apiKey: shop.apiKey };
}

/** The same story for either shop: buy, return unpaid, the test webhook, a deposit, its webhook, return paid, refund. */
async function shopStory(shop: Shop & { apiKey: string }, orderId: string) {
  // The service's test event (a sample payment.confirmed of no real payment) is acknowledged, not an error.
  const test = await gqlOk(app.baseUrl, `mutation { sendTestWebhook { status } }`, {}, shop.apiKey);
  expect(test.sendTestWebhook.status, shop.output()).toBe('succeeded');

  const buy = await fetch(`${shop.url}/buy?order=${orderId}&amount=150000`, { redirect: 'manual' });
  expect(buy.status, shop.output()).toBe(303);
  expect(buy.headers.get('location')).toMatch(/\/pay\/[A-Za-z0-9_-]+$/);
  const order = async () => (await (await fetch(`${shop.url}/orders/${orderId}`)).json()) as { paymentId: string; paid: boolean; amount: number };
  const { paymentId } = await order();

  const payment = await request(app.baseUrl, 'GET', `/v1/payments/${paymentId}`, { token: shop.apiKey });
  expect(payment.body).toMatchObject({ orderId, amountRequested: '1500000', currency: 'IRT' });

  const back = (status: string) => fetch(`${shop.url}/return?service_token=x&service_status=${status}&service_ref=${paymentId}&order_id=${orderId}`).then((r) => r.text());
  expect(await back('confirmed'), 'a typed service_status is not trusted').toBe('not paid');
  expect((await order()).paid).toBe(false);

  const tampered = await fetch(`${shop.url}/hooks/gateway`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
    body: JSON.stringify({ event: 'payment.confirmed', paymentId, orderId, deliveryId: 'forged' }),
  });
  expect(tampered.status).toBe(400);
  expect((await order()).paid).toBe(false);

  const deposit = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId, outcome: 'match' } });
  expect(deposit.body.payment.status).toBe('confirmed');
  // The service's payment.confirmed delivery reaches the shop, which verifies and marks the order paid.
  await until(async () => (await order()).paid, 30_000, `the shop's webhook to mark ${orderId} paid\n${shop.output()}`);
  // The shop answered 2xx: the service records the attempt once the answer is in, after the shop's work.
  const DELIVERIES = `query($id: ID!) { webhookDeliveries(paymentId: $id, first: 5) { edges { node { eventType status } } } }`;
  await until(
    async () => (await gqlOk(app.baseUrl, DELIVERIES, { id: paymentId }, shop.apiKey)).webhookDeliveries.edges.some((e: { node: { eventType: string; status: string } }) => e.node.eventType === 'payment.confirmed' && e.node.status === 'succeeded'),
    30_000,
    `payment.confirmed to be recorded as delivered to the shop\n${shop.output()}`,
  );
  expect(await back('canceled'), 'verify decides, not the URL').toBe('paid');

  const refund = () => fetch(`${shop.url}/refund?order=${orderId}&amount=500000&card=6037991234567893&reference=R1`, { method: 'POST' }).then(async (r) => [r.status, await r.json()] as const);
  const [status, first] = await refund();
  expect(status, shop.output()).toBe(201);
  expect(first).toMatchObject({ refunds: 1, recorded: { paymentId, amount: '500000', destinationCard: '************7893' } });
  const [, again] = await refund();
  expect(again).toEqual(first);
}

describe('docs/examples', () => {
  // The two shops run side by side: each waits on the service's deliveries to it.
  it.concurrent('sdk-shop.ts typechecks against the SDK and runs a whole order against the service', async () => {
    const shop = await startShop(process.execPath, () => [path.join(tmp, 'sdk-shop.ts')], tmp, {});
    await shopStory(shop, 'ts-shop-1');
    await typechecked;
  });

  it.concurrent('callback.php (plain PHP on the PHP SDK) runs a whole order against the service', async () => {
    const shop = await startShop('php', (port) => ['-S', `127.0.0.1:${port}`, path.join(EXAMPLES, 'callback.php')], EXAMPLES, {
      ORDERS_FILE: path.join(tmp, 'orders.json'),
      CARDGATEWAY_SDK: path.join(ROOT, 'sdk/php/autoload.php'),
    });
    await shopStory(shop, 'php-shop-1');
  });

  it('the Laravel controller is valid PHP and uses only the SDK’s public surface', async () => {
    await run('php', ['-l', path.join(EXAMPLES, 'LaravelPaymentController.php')]);
    const code = readFileSync(path.join(EXAMPLES, 'LaravelPaymentController.php'), 'utf8');
    for (const used of ['->payments->create(', '->payments->verify(', 'Webhook::verify(', 'catch (SignatureException', "getErrorCode() === 'amount_mismatch'"]) expect(code).toContain(used);
  });
});

describe('docs/integration.md shows the examples as they run', () => {
  const sources: Record<string, string> = { ts: 'sdk-shop.ts', php: 'callback.php' };
  const normal = (s: string) => s.replace(/^<\?php\s*/, '').split('\n').map((l) => l.trimEnd()).join('\n').trim();
  const blocks = fencedBlocks('integration.md').filter((b) => b.info.doctest === 'sdk');

  it('has a TypeScript and a PHP block for each step', () => {
    expect(blocks.filter((b) => b.lang === 'ts').length).toBeGreaterThanOrEqual(6);
    expect(blocks.filter((b) => b.lang === 'php').length).toBeGreaterThanOrEqual(6);
  });

  it.each(fencedBlocks('integration.md').filter((b) => b.info.doctest === 'sdk').map((b) => [`${b.lang} at line ${b.line}`, b] as const))('%s is a piece of its example', (_name, block) => {
    const source = sources[block.lang];
    expect(source, `no example for ${block.lang}`).toBeDefined();
    expect(normal(readFileSync(path.join(EXAMPLES, source!), 'utf8'))).toContain(normal(block.code));
  });
});
