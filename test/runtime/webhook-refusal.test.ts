import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { gqlOk, makeShop, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { spawnTs, waitFor, type Spawned } from '../support/process.js';

let setup: TestApp;
let api: Spawned;

beforeAll(async () => {
  setup = await startTestApp({ role: 'api' });
  api = spawnTs('src/main.ts', ['--role', 'api'], testEnv(setup.databaseUrl, { WEBHOOK_ALLOW_PRIVATE: '0', LOG_LEVEL: 'warn' }));
  await waitFor(() => /listening on port \d+/.test(api.stdout()), 45_000, 'the API to listen');
});
afterAll(async () => {
  api.child.kill('SIGTERM');
  await api.exit;
  await setup.stop();
});

describe('a refused webhook target', () => {
  it('is logged at warn level with the reason and the setting to change', async () => {
    // Given a project whose endpoint is a loopback receiver, on a service that refuses private targets
    const shop = await makeShop(setup);
    const url = 'http://127.0.0.1:9/hooks';
    await gqlOk(setup.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: shop.projectId, u: url }, shop.merchantKey);

    // When a delivery to it is attempted
    const port = Number(/listening on port (\d+)/.exec(api.stdout())?.[1]);
    const sent = await gqlOk(`http://127.0.0.1:${port}`, `mutation { sendTestWebhook { status } }`, {}, shop.apiKey);
    expect(sent.sendTestWebhook.status).toBe('failed');

    // Then the log says why, and which setting allows it
    await waitFor(() => api.stderr().includes('WEBHOOK_ALLOW_PRIVATE'), 5_000, 'the warning');
    const warning = api.stderr().split('\n').filter(Boolean).map((line) => JSON.parse(line)).find((entry) => entry.setting === 'WEBHOOK_ALLOW_PRIVATE');
    expect(warning).toMatchObject({ level: 40, url, setting: 'WEBHOOK_ALLOW_PRIVATE' });
    expect(warning.reason).toMatch(/not allowed/);
    expect(warning.msg).toMatch(/WEBHOOK_ALLOW_PRIVATE=1/);
  });
});

describe('WEBHOOK_ALLOW_PRIVATE when unset', () => {
  const url = 'postgresql://u:p@db.example:5432/gw';
  const secret = { SECRET_KEY: 'x'.repeat(32) };

  it('is on for the embedded development default, so a loopback receiver works', () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(true);
  });

  it('is off in production and on DATABASE_URL, and an explicit value always wins', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ DATABASE_URL: url, ...secret }).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '0' }).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ DATABASE_URL: url, ...secret, WEBHOOK_ALLOW_PRIVATE: '1' }).webhookAllowPrivate).toBe(true);
  });
});
