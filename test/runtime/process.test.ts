import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, request, testEnv } from '../support/harness.js';
import { runTs, spawnTs, waitFor, type Spawned } from '../support/process.js';

let databaseUrl: string;
const running: Spawned[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});
afterAll(() => {
  for (const p of running) p.child.kill('SIGKILL');
});

function start(role: string, extra: Record<string, string> = {}) {
  const p = spawnTs('src/main.ts', ['--role', role], testEnv(databaseUrl, { PORT: '0', ...extra }));
  running.push(p);
  return p;
}

const portOf = (p: Spawned) => Number(/listening on port (\d+)/.exec(p.stdout())?.[1]);

// Each test starts `node --import tsx src/main.ts`: seconds on a quiet machine, more than 30 s once on a
// loaded CI runner, so these tests get room beyond the default timeout.
describe('processes', { timeout: 90_000 }, () => {
  it('an API process serves HTTP and exits 0 on SIGTERM after finishing', async () => {
    const api = start('api');
    await waitFor(() => /listening on port \d+/.test(api.stdout()), 20_000, 'the API to listen');
    const ready = await request(`http://127.0.0.1:${portOf(api)}`, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    api.child.kill('SIGTERM');
    expect(await api.exit).toBe(0);
  });

  it('a worker process runs jobs without HTTP, beside an API process on the same database', async () => {
    const worker = start('worker');
    const api = start('api');
    await waitFor(() => worker.stdout().includes('worker running') && /listening on port/.test(api.stdout()), 20_000, 'both roles');
    expect(worker.stdout()).not.toMatch(/listening on port/);
    worker.child.kill('SIGTERM');
    api.child.kill('SIGTERM');
    expect(await worker.exit).toBe(0);
    expect(await api.exit).toBe(0);
  });

  it('refuses to start on a bad environment, naming the variable', async () => {
    const res = await runTs('src/main.ts', [], testEnv(databaseUrl, { PORT: 'eighty' }));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/PORT/);
    expect(res.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('requires SECRET_KEY when DATABASE_URL is set', async () => {
    const env = testEnv(databaseUrl);
    const res = await runTs('src/main.ts', [], { ...env, SECRET_KEY: '' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/SECRET_KEY/);
  });
});

describe('shutdown with open subscriptions', { timeout: 90_000 }, () => {
  it('ends open SSE subscriptions with `complete` and exits 0 promptly on SIGTERM', async () => {
    const { startTestApp, makeShop, createPaymentRest } = await import('../support/harness.js');
    const setup = await startTestApp({ role: 'api', databaseUrl });
    const shop = await makeShop(setup);
    const p = (await createPaymentRest(setup, shop.apiKey, { amount: 40_000 })).body;
    await setup.stop();

    const api = start('api');
    await waitFor(() => /listening on port \d+/.test(api.stdout()), 20_000, 'the API to listen');
    const query = encodeURIComponent('subscription($t: String!) { checkoutStatus(token: $t) { status } }');
    const variables = encodeURIComponent(JSON.stringify({ t: p.token }));
    const res = await fetch(`http://127.0.0.1:${portOf(api)}/graphql?query=${query}&variables=${variables}`, { headers: { accept: 'text/event-stream' } });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('"pending"')) text += new TextDecoder().decode((await reader.read()).value);
    api.child.kill('SIGTERM');
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    expect(text).toContain('event: complete');
    expect(text).not.toContain('internal_error');
    expect(await api.exit).toBe(0);
  });
});
