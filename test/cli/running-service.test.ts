import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { readServiceFile, removeServiceFile, writeServiceFile } from '../../src/service-file.js';

/**
 * The CLI beside `npm start` finds the service by itself (README "The operator CLI"): the embedded
 * server's port from its postmaster.pid, whatever EMBEDDED_PG_PORT the service was given, and the
 * service's base URL (its PORT) from the service file it writes while it runs.
 */
describe('the running service, as the CLI finds it', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'gw-cli-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('attaches to the server its postmaster.pid names, not the EMBEDDED_PG_PORT it was given', async () => {
    // The suite's own server stands for an `npm start` that used another port.
    const port = Number(new URL(inject('pgServerUrl')).port);
    const dir = await tempDir();
    await mkdir(path.join(dir, 'pg'));
    await writeFile(path.join(dir, 'pg', 'postmaster.pid'), `12345\n${dir}/pg\n1764400000\n${port}\n/tmp\n127.0.0.1\n  1 2\nready   \n`);
    const free = port === 65000 ? 65001 : 65000;
    const server = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: free });
    expect(server.port).toBe(port);
    expect(new URL(server.serverUrl).port).toBe(String(port));
    await server.stop();
  });

  it('reads the service’s base URL while its process lives; a file left by a process that is gone is ignored', async () => {
    const dir = await tempDir();
    expect(await readServiceFile(dir)).toBeNull();
    await writeServiceFile(dir, { port: 4123, publicBaseUrl: 'http://localhost:4123' });
    expect(await readServiceFile(dir)).toEqual({ pid: process.pid, port: 4123, publicBaseUrl: 'http://localhost:4123' });
    await removeServiceFile(dir);
    expect(await readServiceFile(dir)).toBeNull();
    // A pid no process has (above Linux's pid_max).
    await writeFile(path.join(dir, 'service.json'), JSON.stringify({ pid: 4_194_400, port: 4123, publicBaseUrl: 'http://localhost:4123' }));
    expect(await readServiceFile(dir)).toBeNull();
  });
});
