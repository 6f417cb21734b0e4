import { InvalidArgumentError } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { readServiceFile } from '../service-file.js';
import { openDatabase } from '../db/open.js';
import { createPool } from '../db/pool.js';
import { createPrisma } from '../db/prisma.js';
import { SecretBox } from '../domain/auth/secret-box.js';
import type { Deps } from '../domain/deps.js';
import { createLogger } from '../logger.js';
import type { JobQueue } from '../queue/job-queue.js';

export function rials(value: string): string {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError('must be a whole number of rials');
  return value;
}

export function integer(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}

// The CLI sends no jobs; a queue that refuses makes any accidental use loud.
const noJobs = {
  send: () => Promise.reject(new Error('the operator CLI does not enqueue jobs')),
} as unknown as JobQueue;

/**
 * Beside a running embedded-default `npm start` (no DATABASE_URL), the links the CLI prints use the
 * service's own base URL unless PUBLIC_BASE_URL or PORT is set here; its database is found by the
 * embedded server's postmaster.pid (src/db/embedded.ts), whatever EMBEDDED_PG_PORT it was given.
 */
async function runningServiceConfig(config: Config): Promise<Config> {
  if (config.databaseUrl || process.env.PUBLIC_BASE_URL || process.env.PORT) return config;
  const service = await readServiceFile(config.dataDir);
  return service ? { ...config, publicBaseUrl: service.publicBaseUrl, port: service.port } : config;
}

/** Opens the database (attaching to a running embedded server, or starting it for the command), runs `fn`, closes. */
export async function withDeps<T>(fn: (deps: Deps) => Promise<T>): Promise<T> {
  const config = await runningServiceConfig(loadConfig());
  const log = createLogger(process.env.LOG_LEVEL ?? 'warn', 'cli');
  const db = await openDatabase(config, log);
  const pool = createPool(db.databaseUrl, 2);
  const prisma = createPrisma(pool);
  // A cluster this command started runs detached (its own process group): Ctrl-C must stop it too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void db.close().finally(() => process.exit(130)));
  }
  try {
    return await fn({ config, prisma, pool, log, secrets: new SecretBox(db.secretKey), jobs: noJobs, notifier: null, limits: null });
  } finally {
    await prisma.$disconnect();
    await pool.end();
    await db.close();
  }
}
