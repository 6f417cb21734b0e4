import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, createTestDatabase, makeShop, request, startTestApp, testEnv } from '../support/harness.js';
import { runTs, spawnSources, spawnTs, waitFor, type Spawned } from '../support/process.js';

let databaseUrl: string;
const running: Spawned[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});
afterAll(() => {
  for (const p of running) p.child.kill('SIGKILL');
});

function start(role: string, from: typeof spawnTs = spawnTs) {
  const p = from('src/main.ts', ['--role', role], testEnv(databaseUrl, { PORT: '0' }));
  running.push(p);
  return p;
}

const portOf = (p: Spawned) => Number(/listening on port (\d+)/.exec(p.stdout())?.[1]);
const STACK_FRAME = /^\s+at .+[:(]/m;

// Starting a process takes seconds on a quiet machine, more than 30 s once on a loaded CI runner, so
// these tests get room beyond the default timeout.
describe('processes', { timeout: 90_000 }, () => {
  it('an API process serves HTTP beside a worker process without HTTP on the same database; on SIGTERM the API ends open SSE subscriptions with `complete` and each exits 0 after finishing', async () => {
    // The worker from the sources, as `npm run dev` runs it; the API from the bundle, as `npm start` does.
    const worker = start('worker', spawnSources);
    const api = start('api');
    const setup = await startTestApp({ role: 'api', databaseUrl });
    const shop = await makeShop(setup);
    const p = (await createPaymentRest(setup, shop.apiKey, { amount: 40_000 })).body;
    await setup.stop();
    await waitFor(() => worker.stdout().includes('worker running') && /listening on port \d+/.test(api.stdout()), 60_000, 'both roles');
    expect(worker.stdout()).not.toMatch(/listening on port/);
    const base = `http://127.0.0.1:${portOf(api)}`;
    expect((await request(base, 'GET', '/readyz')).status).toBe(200);

    const query = encodeURIComponent('subscription($t: String!) { checkoutStatus(token: $t) { status } }');
    const variables = encodeURIComponent(JSON.stringify({ t: p.token }));
    const res = await fetch(`${base}/graphql?query=${query}&variables=${variables}`, { headers: { accept: 'text/event-stream' } });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('"pending"')) text += new TextDecoder().decode((await reader.read()).value);
    api.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    expect(text).toContain('event: complete');
    expect(text).not.toContain('internal_error');
    expect(await api.exit).toBe(0);
    expect(await worker.exit).toBe(0);
  });

  it.concurrent('refuses to start on a bad environment, naming the variable', async () => {
    const res = await runTs('src/main.ts', [], testEnv(databaseUrl, { PORT: 'eighty' }));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/PORT/);
    expect(res.stderr).not.toMatch(STACK_FRAME);
  });

  it.concurrent('requires SECRET_KEY when DATABASE_URL is set', async () => {
    const env = testEnv(databaseUrl);
    const res = await runTs('src/main.ts', [], { ...env, SECRET_KEY: '' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/SECRET_KEY/);
    expect(res.stderr).not.toMatch(STACK_FRAME);
  });
});
