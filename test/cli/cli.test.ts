import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlOk, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { runTs } from '../support/process.js';

let app: TestApp;
const cli = (...args: string[]) => runTs('src/cli/index.ts', args, testEnv(app.databaseUrl));

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

// Each test's commands run in a process of their own; the tests share nothing but the database, so
// they run at once (each test's own commands keep their order where it matters).
describe.concurrent('operator CLI', { timeout: 120_000 }, () => {
  it('creates a merchant whose key works, printing only one JSON object on stdout', async () => {
    const res = await cli('merchant', 'create', '--name', 'Acme', '--credit', '150000', '--json');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.merchantId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.merchantKey).toMatch(/^mk_[0-9A-Za-z]{32,}$/);
    const viewer = await gqlOk(app.baseUrl, `{ viewer { merchant { id name credit { balance available } } } }`, {}, out.merchantKey);
    expect(viewer.viewer.merchant).toEqual({ id: out.merchantId, name: 'Acme', credit: { balance: '150000', available: '150000' } });
  });

  it('adds credit, deactivates a merchant, suspends a project and sets its fee', async () => {
    const created = JSON.parse((await cli('merchant', 'create', '--name', 'B', '--json')).stdout);
    const project = await gqlOk(app.baseUrl, `mutation { createProject(input: { name: "P" }) { apiKey project { id } } }`, {}, created.merchantKey);
    const projectId = project.createProject.project.id;
    const [credit, fee] = await Promise.all([
      cli('merchant', 'credit', '--id', created.merchantId, '--add', '70000', '--json'),
      cli('project', 'fee', '--id', projectId, '--bps', '250', '--min', '2000', '--max', '90000', '--json'),
    ]);
    expect(JSON.parse(credit.stdout).credit).toEqual({ balance: '70000', reserved: '0', available: '70000' });
    expect(JSON.parse(fee.stdout)).toEqual({ projectId, feeBps: 250, feeMin: '2000', feeMax: '90000' });

    expect((await cli('project', 'deactivate', '--id', projectId, '--json')).code).toBe(0);
    const asProject = await gql(app.baseUrl, `{ viewer { kind } }`, {}, project.createProject.apiKey);
    expect(asProject.errors?.[0]?.extensions.code).toBe('project_inactive');

    expect((await cli('merchant', 'deactivate', '--id', created.merchantId, '--json')).code).toBe(0);
    const asMerchant = await gql(app.baseUrl, `{ viewer { kind } }`, {}, created.merchantKey);
    expect(asMerchant.errors?.[0]?.extensions.code).toBe('merchant_inactive');
  });

  it('demo re-issues the demo keys and revokes the old ones', async () => {
    const first = JSON.parse((await cli('demo', '--json')).stdout);
    const second = JSON.parse((await cli('demo', '--json')).stdout);
    expect(second.projectId).toBe(first.projectId);
    expect(second.apiKey).not.toBe(first.apiKey);
    expect((await gql(app.baseUrl, `{ viewer { kind } }`, {}, first.apiKey)).errors?.[0]?.extensions.code).toBe('unauthorized');
    expect((await gqlOk(app.baseUrl, `{ viewer { kind project { sandbox } } }`, {}, second.apiKey)).viewer).toEqual({ kind: 'project', project: { sandbox: true } });
    expect((await gqlOk(app.baseUrl, `{ viewer { kind } }`, {}, second.merchantKey)).viewer.kind).toBe('merchant');
  });

  it('fails with exit 1 and an error object for bad input', async () => {
    const res = await cli('merchant', 'credit', '--id', '00000000-0000-4000-8000-000000000000', '--add', '10', '--json');
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).error.code).toBe('not_found');
  });
});
