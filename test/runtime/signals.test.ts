import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { request } from '../support/harness.js';
import { bundleOf, PRODUCTION_ENV, PRODUCTION_NODE_FLAGS, waitFor } from '../support/process.js';

let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-signals-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * `npm start` as a terminal runs it: the bundle with npm start's node flags and environment, on the
 * embedded default, in a process group of its own.
 */
async function startInOwnGroup(extra: Record<string, string>) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...PRODUCTION_ENV,
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    ...extra,
  };
  delete env.DATABASE_URL;
  delete env.SECRET_KEY;
  delete env.WEBHOOK_ALLOW_PRIVATE;
  const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, bundleOf('src/main.ts')], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exit, stdout: () => stdout, stderr: () => stderr };
}

const STACK_FRAME = /^\s+at .+[:(]/m;

describe('process manners', () => {
  // The busy port is found before the data folder is touched: that test runs beside the first.
  it.concurrent('stops cleanly with a two-line message when the terminal sends SIGINT to the whole process group', async () => {
    // Given the service on the embedded default, started in its own process group
    const gateway = await startInOwnGroup({ PORT: '0' });
    await waitFor(() => /demo payment link page|payment link page/.test(gateway.stdout()), 60_000, 'start-up to finish');
    const port = Number(/listening on port (\d+)/.exec(gateway.stdout())?.[1]);
    expect((await request(`http://127.0.0.1:${port}`, 'GET', '/readyz')).status).toBe(200);
    const before = { out: gateway.stdout().length, err: gateway.stderr().length };

    // When Ctrl-C reaches every process of the group
    process.kill(-gateway.child.pid!, 'SIGINT');
    const { code, signal } = await gateway.exit;

    // Then it exits 0 with two lines, no stack, and the embedded cluster is stopped too
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(gateway.stdout().slice(before.out).trim().split('\n')).toEqual([
      'Stopping (SIGINT): finishing in-flight requests and jobs…',
      'Stopped.',
    ]);
    expect(gateway.stderr().slice(before.err)).toBe('');
    expect(gateway.stderr()).not.toMatch(STACK_FRAME);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 90_000);

  it.concurrent('says in one line that the port is busy, naming PORT', async () => {
    // Given another process listening on the port
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '0.0.0.0', resolve));
    const { port } = holder.address() as { port: number };
    try {
      // When the service is started on it
      const gateway = await startInOwnGroup({ PORT: String(port) });
      const { code } = await gateway.exit;

      // Then it exits 1 with one line naming PORT and no stack trace
      expect(code).toBe(1);
      expect(gateway.stdout()).toBe('');
      expect(gateway.stderr().trim().split('\n')).toEqual([`Port ${port} is already in use: set PORT to a free port (e.g. PORT=${port + 1} npm start).`]);
    } finally {
      holder.close();
    }
  }, 60_000);

  it('says at start-up that development webhooks may target loopback receivers', async () => {
    const gateway = await startInOwnGroup({ PORT: '0' });
    await waitFor(() => /payment link page/.test(gateway.stdout()), 60_000, 'start-up to finish');
    process.kill(-gateway.child.pid!, 'SIGTERM');
    expect((await gateway.exit).code).toBe(0);
    expect(gateway.stdout()).toMatch(/Webhooks: +loopback and private targets allowed .*WEBHOOK_ALLOW_PRIVATE=0/);
    expect(gateway.stdout()).toMatch(/\/l\/demo/);
  }, 90_000);
});
