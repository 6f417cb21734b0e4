import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, makeShop, request, startTestApp, testEnv } from '../support/harness.js';
import { spawnTs, waitFor, type Spawned } from '../support/process.js';
import { clearOfWindowEdge } from '../support/rate-window.js';

const LIMIT = 20;
const BURST = 100;
// Across processes, within 10 % of the limit (docs/decisions.md "Rate limits are counted in Postgres"
// promises no more than the limit; the 10 % is this test's room).
const MAX_PASSED = Math.floor(LIMIT * 1.1);

let databaseUrl: string;
let apiKey: string;
const apis: Spawned[] = [];

const portOf = (p: Spawned) => Number(/listening on port (\d+)/.exec(p.stdout())?.[1]);

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  const env = testEnv(databaseUrl, { RATE_LIMIT_PER_MINUTE: String(LIMIT), PUBLIC_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  for (let i = 0; i < 2; i++) apis.push(spawnTs('src/main.ts', ['--role', 'api'], env));
  // The shop is made in this process while the two start.
  const setup = await startTestApp({ role: 'api', databaseUrl });
  ({ apiKey } = await makeShop(setup));
  await setup.stop();
  const listening = () => apis.every((p) => /listening on port \d+/.test(p.stdout()));
  await waitFor(listening, 60_000, 'two API processes').catch((err: Error) => {
    throw new Error(`${err.message}: ${apis.map((p) => p.stderr()).join('\n')}`);
  });
}, 90_000);
afterAll(() => {
  for (const p of apis) p.child.kill('SIGKILL');
});

describe('rate limits across API processes', () => {
  it('of a burst of 100 requests with one key split over two API processes, limit 20, 20 to 22 pass and the rest are 429 rate_limited with Retry-After', async () => {
    const urls = apis.map((p) => `http://127.0.0.1:${portOf(p)}`);
    await clearOfWindowEdge();

    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => request(urls[i % urls.length]!, 'GET', '/v1/payments', { token: apiKey })),
    );

    const passed = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(passed.length).toBeGreaterThanOrEqual(LIMIT);
    expect(passed.length).toBeLessThanOrEqual(MAX_PASSED);
    expect(limited).toHaveLength(BURST - passed.length);
    for (const a of limited) {
      expect(a.body.error.code).toBe('rate_limited');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('holds the per-IP limit of public callers across both processes too', async () => {
    const urls = apis.map((p) => `http://127.0.0.1:${portOf(p)}`);
    await clearOfWindowEdge();

    const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => request(urls[i % urls.length]!, 'GET', `/v1/checkout/${'z'.repeat(43)}`)));

    const passed = answers.filter((a) => a.status === 404).length;
    expect(passed).toBeGreaterThanOrEqual(LIMIT);
    expect(passed).toBeLessThanOrEqual(MAX_PASSED);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(BURST - passed);
  });
});
