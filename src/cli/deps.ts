import { InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.js';
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

/** Opens the database (attaching to a running embedded server, or starting it for the command), runs `fn`, closes. */
export async function withDeps<T>(fn: (deps: Deps) => Promise<T>): Promise<T> {
  const config = loadConfig();
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
