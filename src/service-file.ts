import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What a running embedded-default service tells the CLI beside it (README "The operator CLI"): its
 * public base URL, so the links the CLI prints (set-password, checkout) point at the port `npm start`
 * listens on, whatever PORT it was given. Written under the data folder once the service listens,
 * removed when it stops; a file left by a process that is gone is ignored.
 */
export type ServiceFile = { pid: number; port: number; publicBaseUrl: string };

const NAME = 'service.json';

export async function writeServiceFile(dataDir: string, service: Omit<ServiceFile, 'pid'>): Promise<void> {
  await writeFile(path.resolve(dataDir, NAME), `${JSON.stringify({ pid: process.pid, ...service })}\n`, { mode: 0o644 });
}

export async function removeServiceFile(dataDir: string): Promise<void> {
  const file = path.resolve(dataDir, NAME);
  const current = await readServiceFile(dataDir, { alive: false });
  if (current?.pid === process.pid) await rm(file, { force: true });
}

/** The running service's record, or null (none, unreadable, or its process is gone). */
export async function readServiceFile(dataDir: string, opts: { alive: boolean } = { alive: true }): Promise<ServiceFile | null> {
  const file = path.resolve(dataDir, NAME);
  if (!existsSync(file)) return null;
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as ServiceFile;
    if (typeof parsed.publicBaseUrl !== 'string' || !Number.isInteger(parsed.pid)) return null;
    if (opts.alive) process.kill(parsed.pid, 0);
    return parsed;
  } catch {
    return null;
  }
}
