import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, request, testEnv } from '../support/harness.js';
import { PRODUCTION_ENV, PRODUCTION_NODE_FLAGS, spawnNode, waitFor, type Spawned } from '../support/process.js';

/**
 * `npm start` runs the production bundle (`npm run build`: esbuild, dependencies left in
 * node_modules) from dist/, not the sources under tsx. The bundle sits one folder lower than the
 * sources it came from, so every file the service reads at run time (migrations, SQL definitions,
 * the pages' assets, the dashboard's build) must still be found: this starts it and asks for each.
 */
let databaseUrl: string;
let api: Spawned | undefined;
let builtAt: number;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  // Not removed first: test/docs/doc-examples.test.ts's `npm start` may be starting from it meanwhile.
  builtAt = Date.now();
  execFileSync('npm', ['run', '-s', 'build'], { stdio: 'pipe' });
}, 60_000);
afterAll(() => api?.child.kill('SIGKILL'));

describe('the production bundle (npm start)', { timeout: 90_000 }, () => {
  it('builds dist/main.mjs, migrates, serves every kind of route and stops on SIGTERM', async () => {
    // Written by the build just run (the file system's clock is a little coarser than Date.now()).
    expect(statSync('dist/main.mjs').mtimeMs).toBeGreaterThanOrEqual(builtAt - 50);
    api = spawnNode([...PRODUCTION_NODE_FLAGS, 'dist/main.mjs', '--role', 'api'], testEnv(databaseUrl, { ...PRODUCTION_ENV, PORT: '0', NODE_ENV: 'production' }));
    await waitFor(() => /listening on port \d+/.test(api!.stdout()) || api!.child.exitCode !== null, 40_000, 'the bundle to listen');
    const port = /listening on port (\d+)/.exec(api.stdout())?.[1];
    expect(port, api.stderr()).toBeDefined();
    const base = `http://127.0.0.1:${port}`;

    expect((await request(base, 'GET', '/readyz')).status).toBe(200);
    const checkoutCss = await request(base, 'GET', '/pay/assets/checkout.css');
    expect(checkoutCss.status).toBe(200);
    expect(checkoutCss.text.length).toBeGreaterThan(100);
    expect((await request(base, 'GET', '/favicon.ico')).status).toBe(200);
    const dashboard = await request(base, 'GET', '/dashboard/');
    expect(dashboard.status).toBe(200);
    const script = /src="\/dashboard\/(assets\/[^"]+\.js)"/.exec(dashboard.text)?.[1];
    expect(script, dashboard.text).toBeDefined();
    expect((await request(base, 'GET', `/dashboard/${script}`)).status).toBe(200);
    expect((await request(base, 'GET', '/docs')).status).toBe(200);
    const gql = await request(base, 'POST', '/graphql', { body: { query: '{ __typename }' } });
    expect(gql.body).toEqual({ data: { __typename: 'Query' } });
    // Production serves no GraphiQL (and so never loads its 27 MB package).
    const explorer = await request(base, 'GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(explorer.text).not.toMatch(/<html/i);

    api.child.kill('SIGTERM');
    expect(await api.exit).toBe(0);
  });
});
