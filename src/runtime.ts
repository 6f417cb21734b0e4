import pg from 'pg';
import { jobDefinitions } from '../jobs/index.js';
import type { Config } from './config.js';
import { createPrisma } from './db/prisma.js';
import { SecretBox } from './domain/auth/secret-box.js';
import type { Deps } from './domain/deps.js';
import { startHttpServer, type HttpServer } from './http/server.js';
import type { Logger } from './logger.js';
import { JobQueue } from './queue/job-queue.js';
import { PaymentNotifier } from './events/payment-notifier.js';
import { RateLimits } from './domain/rate-limits.js';

export type Role = 'all' | 'api' | 'worker';

export type Runtime = { deps: Deps; http: HttpServer | null; stop: () => Promise<void> };

/**
 * One process of the service: the API (HTTP, GraphQL, WebSocket), the job workers, or both, against
 * a migrated database. Any number of each may run against one Postgres.
 */
export async function startRuntime(opts: {
  config: Config;
  databaseUrl: string;
  secretKey: string;
  role: Role;
  log: Logger;
  port?: number;
  host?: string;
  lookup?: Deps['lookup'];
}): Promise<Runtime> {
  const { config, role, log } = opts;
  // Workers run EXPIRY_CONCURRENCY expiries and WEBHOOK_CONCURRENCY attempts at once: a larger pool.
  const prisma = createPrisma(opts.databaseUrl, role === 'api' ? 10 : 24);
  const jobs = await JobQueue.start(opts.databaseUrl, log, { work: role !== 'api' }, jobDefinitions);
  const serving = role !== 'worker';
  const limitsPool = serving ? new pg.Pool({ connectionString: opts.databaseUrl, max: 4 }) : null;
  // An idle client dropped by the server (a restart, a failover) is replaced on next use, not fatal.
  limitsPool?.on('error', (err) => log.warn({ err }, 'rate-limit pool: idle connection lost'));
  const notifier = serving ? await PaymentNotifier.start(opts.databaseUrl, log) : null;
  const deps: Deps = {
    config,
    prisma,
    log,
    secrets: new SecretBox(opts.secretKey),
    jobs,
    lookup: opts.lookup,
    notifier,
    limits: limitsPool ? new RateLimits(limitsPool, config) : null,
  };
  if (role !== 'api') await jobs.work(deps, jobDefinitions);
  const http = role === 'worker' ? null : await startHttpServer(deps, opts.port ?? config.port, opts.host);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Stop taking work first, let in-flight requests and jobs finish, then close the pools.
      await notifier?.stop();
      await http?.close();
      await jobs.stop();
      await limitsPool?.end();
      await prisma.$disconnect();
    })());
  return { deps, http, stop };
}
