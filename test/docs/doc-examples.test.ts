import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, gqlOk, makeProject, makeShop, request, startTestApp, TEST_SECRET_KEY, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';
import { checkAnswer, fencedBlocks, runGraphql, runHttp, runService, runShell, type Block, type Vars } from './doctest.js';

/** The guides whose examples run here, in this order (later guides reuse nothing from earlier ones but the fixture). */
const GUIDES = ['integration.md', 'live-setup.md', 'webhooks.md', 'operations.md', 'forwarders.md', 'exceptions.md'];
const RUNNABLE = new Set(['sh', 'bash', 'http', 'graphql', 'js', 'mjs', 'php', 'python', 'ts']);

let app: TestApp;
let receiver: Receiver;
const vars: Vars = new Map();

beforeAll(async () => {
  app = await startTestApp();
  receiver = await new Receiver().start();
  const shop = await makeShop(app, { credit: 5_000_000 });
  // A live project whose only phone has never been heard from: creating a payment there is 503.
  const live = await makeProject(app, { sandbox: false, merchantKey: shop.merchantKey });
  const phone = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Silent" }) { device { id } } }`, {}, shop.merchantKey);
  await gqlOk(
    app.baseUrl,
    `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`,
    { input: { projectId: live.projectId, deviceId: phone.createDevice.device.id, bankCode: 'saman', cardNumber: '6219861000000001', holderName: 'Live' } },
    shop.merchantKey,
  );
  for (const [name, value] of Object.entries({
    GATEWAY: app.baseUrl,
    MERCHANT_KEY: shop.merchantKey,
    API_KEY: shop.apiKey,
    PROJECT_ID: shop.projectId,
    LIVE_API_KEY: live.apiKey,
    RECEIVER_URL: `${receiver.url}/hooks/gateway`,
    DATABASE_URL: app.databaseUrl,
  })) vars.set(name, value);
});

afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
});

/**
 * The `sh doctest=service` blocks (`npm start` and the roles apart, in operations.md) depend on no
 * other block: each runs on a database of its own. They start in the background with the file,
 * while the guides' other blocks run; each block's test waits for its own run. Each starts once
 * the one before it is up: each `npm start` first rebuilds dist/main.mjs, which must not change
 * under a process still starting from it.
 */
const serviceRuns = new Map<string, Promise<void>>();
const at = (b: Block) => `${b.file}:${b.line}`;

beforeAll(() => {
  let previousUp: Promise<unknown> = Promise.resolve();
  for (const block of GUIDES.flatMap(fencedBlocks).filter((b) => b.info.doctest === 'service')) {
    let up = () => undefined as void;
    const isUp = new Promise<void>((resolve) => (up = resolve));
    const run = previousUp.then(async () => {
      const databaseUrl = await createTestDatabase();
      await runService(block, { DATABASE_URL: databaseUrl, SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'silent', NODE_ENV: 'test' }, up);
    });
    serviceRuns.set(at(block), run);
    // A run that fails before it is up lets the next one start all the same; its failure is its own block's.
    previousUp = Promise.race([isUp, run.catch(() => undefined)]);
  }
});
afterAll(() => Promise.allSettled(serviceRuns.values()));

const runnable = (file: string) => fencedBlocks(file).filter((b) => RUNNABLE.has(b.lang));
const named = (b: Block) => `${b.file}:${b.line} ${b.lang} ${Object.entries(b.info).map(([k, v]) => (v ? `${k}=${v}` : k)).join(' ')}`;

describe('docs', () => {
  it.each(GUIDES)('%s tags every command, request and snippet as a doctest', (file) => {
    const untagged = runnable(file).filter((b) => !('doctest' in b.info)).map(named);
    expect(untagged).toEqual([]);
  });
});

/** A guide's requests in order, each followed by the answer blocks (`json doctest=answer`) that show what it got back. */
const steps = (file: string) =>
  fencedBlocks(file).filter((b) => (RUNNABLE.has(b.lang) && (b.info.doctest === '' || b.info.doctest === 'service')) || (b.lang === 'json' && b.info.doctest === 'answer'));

function guideSuite(file: string) {
  describe(file, () => {
    let request: Block | undefined;
    for (const block of steps(file)) {
      if (block.lang === 'json') {
        const of = request;
        it(named(block), () => checkAnswer(block, vars, of));
        continue;
      }
      request = block;
      it(named(block), async (ctx) => {
        // `$NOW`: the moment the block runs (a phone's receivedAt).
        vars.set('NOW', new Date().toISOString());
        if (block.lang === 'http') return runHttp(block, vars);
        if (block.lang === 'graphql') return runGraphql(block, vars);
        if (block.info.doctest === 'service') {
          expect(serviceRuns.has(at(block)), `${at(block)} was not started`).toBe(true);
          return serviceRuns.get(at(block));
        }
        if (block.info.requires && !(await toolFits(block.info.requires))) return ctx.skip(`${block.info.requires} missing or older than the server`);
        await runShell(block, vars);
        // A service block's test may wait for the runs of the ones before it (serviceRuns).
      }, block.info.doctest === 'service' ? 240_000 : 90_000);
    }
  });
}

// Guides run in order, each block after the one before it (captures feed later blocks).
guideSuite('integration.md');

/** pg_dump refuses servers of a newer major version than its own. */
async function toolFits(tool: string): Promise<boolean> {
  let version: string;
  try {
    version = execFileSync(tool, ['--version'], { encoding: 'utf8' });
  } catch {
    return false;
  }
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  const server = Number((await client.query<{ server_version_num: string }>('show server_version_num')).rows[0]!.server_version_num);
  await client.end();
  return Number(/(\d+)\./.exec(version)?.[1] ?? 0) >= Math.floor(server / 10000);
}

describe('webhook signature snippets of integration.md, against a real delivery', () => {
  const snippets = (lang: string) => fencedBlocks('integration.md').filter((b) => b.lang === lang && b.info.doctest === 'webhook-verify');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'doc-snippets-'));
  let delivery: { header: string; body: string; secret: string; t: number };

  beforeAll(async () => {
    // integration.md set the endpoint (capturing its secret) and sent a test webhook.
    const [received] = await receiver.waitFor(1, 20_000);
    const header = String(received!.headers['x-service-signature']);
    delivery = { header, body: received!.body, secret: vars.get('WEBHOOK_SECRET')!, t: Number(/t=(\d+)/.exec(header)![1]) };
  });

  it('Node: accepts the delivery, refuses a changed body and a stale timestamp', async () => {
    const [snippet] = snippets('js');
    const file = path.join(dir, 'verify.mjs');
    writeFileSync(file, snippet!.code);
    const { verify } = (await import(file)) as { verify: (h: string, b: string, s: string, now?: number) => boolean };
    expect(verify(delivery.header, delivery.body, delivery.secret)).toBe(true);
    expect(verify(delivery.header, `${delivery.body} `, delivery.secret)).toBe(false);
    expect(verify(delivery.header, delivery.body, delivery.secret, delivery.t + 301)).toBe(false);
  });

  it('Python: accepts the delivery, refuses a changed body and a stale timestamp', () => {
    const [snippet] = snippets('python');
    const file = path.join(dir, 'verify.py');
    const driver = `\nimport json, sys\nd = json.load(sys.stdin)\nb = d["body"].encode()\nprint(json.dumps([verify(d["header"], b, d["secret"]), verify(d["header"], b + b" ", d["secret"]), verify(d["header"], b, d["secret"], d["t"] + 301)]))\n`;
    writeFileSync(file, snippet!.code + driver);
    const out = execFileSync('python3', [file], { input: JSON.stringify(delivery), encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([true, false, false]);
  });

  it('PHP: accepts the delivery (run where php exists; else the HMAC it describes is checked against the delivery)', () => {
    const [snippet] = snippets('php');
    const code = snippet!.code;
    if (hasPhp()) {
      const file = path.join(dir, 'verify.php');
      const driver = `\n$d = json_decode(file_get_contents('php://stdin'), true);\necho json_encode([verify_signature($d['header'], $d['body'], $d['secret']), verify_signature($d['header'], $d['body'] . ' ', $d['secret']), verify_signature($d['header'], $d['body'], $d['secret'], $d['t'] + 301)]);\n`;
      writeFileSync(file, code + driver);
      expect(JSON.parse(execFileSync('php', [file], { input: JSON.stringify(delivery), encoding: 'utf8' }))).toEqual([true, false, false]);
      return;
    }
    expect(code).toContain("hash_hmac('sha256', $t . '.' . $rawBody, $secret)");
    expect(code).toContain('hash_equals($expected, $signature)');
    expect(code).toContain('abs($now - $t) > 300');
    const described = createHmac('sha256', delivery.secret).update(`${delivery.t}.${delivery.body}`).digest('hex');
    expect(delivery.header.split(',')).toContain(`v1=${described}`);
  });
});

function hasPhp(): boolean {
  try {
    execFileSync('php', ['--version']);
    return true;
  } catch {
    return false;
  }
}

for (const file of GUIDES.slice(1)) guideSuite(file);
