import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, makeShop, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';
import { StandIn } from './stand-in.js';

/**
 * sdk/php (issue 39): its PHPUnit suite (sdk/php/tests), run with Debian's php-cli and phpunit
 * against a real service, a stand-in in front of it for the retries, and a real webhook delivery.
 */

const run = promisify(execFile);
const PHP_SDK = path.resolve('sdk/php');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sdk-php-'));

let app: TestApp;
let standIn: StandIn;
let receiver: Receiver;
let env: Record<string, string>;

beforeAll(async () => {
  const modules = await run('php', ['-m']);
  // .ci/run installs php-cli, php-curl and phpunit; without them this suite cannot say anything.
  expect(modules.stdout.split('\n').map((l) => l.trim()), 'php needs ext-curl and ext-json (apt-get install php-cli php-curl phpunit)').toEqual(expect.arrayContaining(['curl', 'json']));
  app = await startTestApp({ role: 'api' });
  receiver = await new Receiver().start();
  standIn = await new StandIn(app.baseUrl).start();
  const shop = await makeShop(app);
  const set = await gqlOk(
    app.baseUrl,
    `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`,
    { p: shop.projectId, u: `${receiver.url}/hooks` },
    shop.merchantKey,
  );
  await gqlOk(app.baseUrl, `mutation { sendTestWebhook { id } }`, {}, shop.apiKey);
  const [delivery] = await receiver.waitFor(1, 20_000);
  const bodyFile = path.join(tmp, 'delivery.json');
  writeFileSync(bodyFile, delivery!.body);
  env = {
    GATEWAY_BASE_URL: app.baseUrl,
    GATEWAY_API_KEY: shop.apiKey,
    GATEWAY_STANDIN_URL: standIn.url,
    GATEWAY_WEBHOOK_SECRET: set.setWebhookEndpoint.secret,
    GATEWAY_WEBHOOK_HEADER: String(delivery!.headers['x-service-signature']),
    GATEWAY_WEBHOOK_BODY_FILE: bodyFile,
  };
});

afterAll(async () => {
  await standIn?.stop();
  await receiver?.stop();
  await app?.stop();
});

describe('sdk/php', () => {
  it('every source file is valid PHP', async () => {
    for (const file of ['autoload.php', 'src/Client.php', 'src/Payments.php', 'src/Refunds.php', 'src/HttpTransport.php', 'src/ApiException.php', 'src/Webhook.php', 'src/SignatureException.php']) {
      await run('php', ['-l', path.join(PHP_SDK, file)]);
    }
    const composer = JSON.parse(readFileSync(path.join(PHP_SDK, 'composer.json'), 'utf8'));
    expect(composer.require).toEqual({ php: '>=7.4', 'ext-curl': '*', 'ext-json': '*' });
    expect(composer.autoload).toEqual({ 'psr-4': { 'CardGateway\\': 'src/' } });
    expect(composer.version).toMatch(/^1\.\d+\.\d+$/);
    expect(readFileSync(path.join(PHP_SDK, 'src/Client.php'), 'utf8')).toContain(`public const VERSION = '${composer.version}';`);
  });

  it('its PHPUnit suite passes against the service', async () => {
    const junit = path.join(tmp, 'junit.xml');
    const result = await run('phpunit', ['-c', path.join(PHP_SDK, 'phpunit.xml'), '--do-not-cache-result', '--log-junit', junit], {
      env: { ...process.env, ...env },
      timeout: 60_000,
    }).catch((e: { stdout?: string; stderr?: string; code?: number }) => e);
    const out = `${result.stdout ?? ''}${result.stderr ?? ''}`;
    expect('code' in result ? result.code : 0, out).toBe(0);
    const suite = /<testsuite name="cardgateway-sdk" tests="(\d+)" assertions="(\d+)" errors="(\d+)" warnings="(\d+)" failures="(\d+)" skipped="(\d+)"/.exec(readFileSync(junit, 'utf8'));
    expect(suite, out).not.toBeNull();
    const [, tests, assertions, errors, warnings, failures, skipped] = suite!.map(Number);
    expect({ errors, warnings, failures, skipped }, out).toEqual({ errors: 0, warnings: 0, failures: 0, skipped: 0 });
    expect(tests).toBeGreaterThanOrEqual(15);
    expect(assertions).toBeGreaterThan(50);
  });
});
