import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlOk, makeProject, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { runTs } from '../support/process.js';

let app: TestApp;
const cli = (...args: string[]) => runTs('src/cli/index.ts', args, testEnv(app.databaseUrl));

/** stdout must be exactly one JSON object and nothing else. */
async function cliJson(...args: string[]) {
  const res = await cli(...args, '--json');
  expect(res.stdout.trim().split('\n')).toHaveLength(1);
  return { code: res.code, out: JSON.parse(res.stdout), stderr: res.stderr };
}

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
});
afterAll(() => app.stop());

// Each command is a process of its own; the tests share nothing but the database, so they run at once.
describe.concurrent('operator CLI: activate and deactivate', { timeout: 120_000 }, () => {
  it('project activate lifts the operator suspension that project deactivate set', async () => {
    // Given a suspended project
    const shop = await makeProject(app);
    const suspended = await cliJson('project', 'deactivate', '--id', shop.projectId);
    expect(suspended.out).toMatchObject({ projectId: shop.projectId, active: true, suspended: true });
    expect((await gql(app.baseUrl, `{ viewer { kind } }`, {}, shop.apiKey)).errors?.[0]?.extensions.code).toBe('project_inactive');

    // When the operator activates it
    const lifted = await cliJson('project', 'activate', '--id', shop.projectId);

    // Then its key works again
    expect(lifted).toMatchObject({ code: 0, out: { projectId: shop.projectId, suspended: false, suspendedAt: null } });
    expect((await gqlOk(app.baseUrl, `{ viewer { kind } }`, {}, shop.apiKey)).viewer.kind).toBe('project');
  });

  it('merchant activate undoes merchant deactivate', async () => {
    const shop = await makeProject(app);
    const off = await cliJson('merchant', 'deactivate', '--id', shop.merchantId);
    expect(off.out).toMatchObject({ merchantId: shop.merchantId, active: false });
    expect((await gql(app.baseUrl, `{ viewer { kind } }`, {}, shop.merchantKey)).errors?.[0]?.extensions.code).toBe('merchant_inactive');

    const on = await cliJson('merchant', 'activate', '--id', shop.merchantId);

    expect(on.out).toMatchObject({ merchantId: shop.merchantId, active: true });
    expect((await gqlOk(app.baseUrl, `{ viewer { kind } }`, {}, shop.merchantKey)).viewer.kind).toBe('merchant');
  });
});

describe.concurrent('operator CLI: list and show', { timeout: 120_000 }, () => {
  it('lists merchants and projects and shows one of each', async () => {
    const shop = await makeProject(app);

    const [merchants, projects, merchant, project] = await Promise.all([
      cliJson('merchant', 'list'),
      cliJson('project', 'list', '--merchant', shop.merchantId),
      cliJson('merchant', 'show', '--id', shop.merchantId),
      cliJson('project', 'show', '--id', shop.projectId),
    ]);

    expect(merchants.out.items.map((m: { merchantId: string }) => m.merchantId)).toContain(shop.merchantId);
    expect(projects.out.items).toEqual([expect.objectContaining({ projectId: shop.projectId, merchantId: shop.merchantId, sandbox: true })]);
    expect(merchant.out).toMatchObject({ merchantId: shop.merchantId, active: true, projects: [{ projectId: shop.projectId }] });
    expect(project.out).toMatchObject({ projectId: shop.projectId, suspended: false, fee: { bps: 100 }, counts: { cards: 0 } });
    expect(project.out.apiKeys).toEqual([expect.objectContaining({ prefix: expect.stringMatching(/^sk_test_/), revoked: false })]);
  });

  it('answers not_found as JSON for an id that does not exist', async () => {
    const res = await cliJson('project', 'show', '--id', '00000000-0000-4000-8000-000000000000');
    expect(res).toMatchObject({ code: 1, out: { error: { code: 'not_found' } } });
  });
});

describe.concurrent('operator CLI: --json for usage errors and help', { timeout: 120_000 }, () => {
  it.each([
    ['a missing required option', ['merchant', 'show'], 'commander.missingMandatoryOptionValue'],
    ['an unknown command', ['project', 'bogus'], 'commander.unknownCommand'],
    ['an invalid argument', ['merchant', 'credit', '--id', 'x', '--add', '1a'], 'commander.invalidArgument'],
    ['an unknown option', ['project', 'list', '--colour'], 'commander.unknownOption'],
  ])('prints one error object for %s, usage text only on stderr', async (_name, args, usage) => {
    const res = await cliJson(...args);
    expect(res.code).toBe(1);
    expect(res.out).toEqual({ error: { code: 'invalid_request', message: expect.any(String), details: { usage } } });
    expect(res.stderr).toMatch(/Usage:/);
  });

  it('prints help as one JSON object', async () => {
    const res = await cliJson('--help');
    expect(res.code).toBe(0);
    expect(res.out.help).toMatch(/merchant[\s\S]*project[\s\S]*demo/);
  });

  it('keeps stdout pure JSON under `npm run -s cli`', async () => {
    const child = spawn('npm', ['run', '-s', 'cli', '--', 'merchant', 'list', '--json'], { env: { ...process.env, ...testEnv(app.databaseUrl) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(Array.isArray(JSON.parse(out).items)).toBe(true);
  });
});
