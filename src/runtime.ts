import { startLateWindowSweep } from '../jobs/end-late-windows.js';
import { startExpirySweep } from '../jobs/expire-due.js';
import { jobDefinitions } from '../jobs/index.js';
import type { Config } from './config.js';
import { createPool, guardAbandonedClients } from './db/pool.js';
import { createPrisma } from './db/prisma.js';
import { ReadReplica } from './db/read-pool.js';
import { SecretBox } from './domain/auth/secret-box.js';
import type { Deps } from './domain/deps.js';
import { startHttpServer, type HttpServer } from './http/server.js';
import type { Logger } from './logger.js';
import { JobQueue } from './queue/job-queue.js';
import { PaymentNotifier } from './events/payment-notifier.js';
import { RateLimits } from './domain/rate-limits.js';
import { startChatBots } from './chat-bot/poller.js';

export type Role = 'all' | 'api' | 'worker';

export type Runtime = { deps: Deps; http: HttpServer | null; stop: () => Promise<void> };

/**
 * One process of the service: the API (HTTP, GraphQL, WebSocket), the job workers, or both, against
 * a migrated database. Any number of each may run against one Postgres.
 */
/**
 * Connections to DATABASE_URL per pool when DATABASE_POOL_SIZE is unset: the pool that serves
 * requests, and the one that runs jobs and sweeps (EXPIRY_CONCURRENCY expiries and
 * WEBHOOK_CONCURRENCY attempts at once). An `all` process keeps both, apart, so a burst of jobs never
 * queues requests behind it and the requests run on the smaller pool that measured best on a 2-core
 * database (docs/operations.md "Pool sizes").
 */
export const DEFAULT_POOL_SIZES = { api: 10, worker: 24 } as const;

/** The pools a process of `role` keeps: `api` serves requests, `worker` runs jobs and sweeps. */
export const poolsOf = (role: Role): (keyof typeof DEFAULT_POOL_SIZES)[] => (role === 'all' ? ['api', 'worker'] : [role]);

export async function startRuntime(opts: {
  config: Config;
  /** The process's pool (Prisma, typed SQL, pg-boss's queries): DATABASE_URL, may be a transaction pooler. */
  databaseUrl: string;
  /**
   * A session of its own for LISTEN (payment fan-out, credential cache, pg-boss wake-ups). Default:
   * DATABASE_DIRECT_URL when `databaseUrl` is the configured DATABASE_URL, else `databaseUrl`.
   */
  directUrl?: string;
  /** A streaming replica for reads that may lag (exports, stats, dashboard lists). Default: DATABASE_READ_URL. */
  readUrl?: string | null;
  secretKey: string;
  role: Role;
  log: Logger;
  port?: number;
  host?: string;
  lookup?: Deps['lookup'];
}): Promise<Runtime> {
  const { config, role, log } = opts;
  guardAbandonedClients((err) => log.warn({ err }, 'database connection: error after its owner let it go (ignored)'));
  const directUrl = opts.directUrl ?? (opts.databaseUrl === config.databaseUrl ? config.databaseDirectUrl : undefined) ?? opts.databaseUrl;
  // One pool per side of the process (poolsOf), each DATABASE_POOL_SIZE or its side's default.
  // Statements marked `prepare` are parsed once per connection only where nothing pools between us
  // and PostgreSQL: through PgBouncer in transaction mode (DATABASE_DIRECT_URL set apart) they go unnamed.
  const sides = new Map(
    poolsOf(role).map((side) => {
      const pool = createPool(opts.databaseUrl, config.databasePoolSize ?? DEFAULT_POOL_SIZES[side], {
        prepareStatements: directUrl === opts.databaseUrl,
        onPreparedRefused: (err) =>
          log.error({ err }, 'DATABASE_URL pools by transaction (a prepared statement was not where it was parsed): statements go unnamed from now on; set DATABASE_DIRECT_URL to PostgreSQL itself'),
      });
      pool.on('error', (err) => log.warn({ err, pool: side }, 'database pool: idle connection lost'));
      return [side, { pool, prisma: createPrisma(pool) }] as const;
    }),
  );
  const requestSide = sides.get('api');
  const jobSide = sides.get('worker');
  // A worker process has only its job pool: that is its deps' pool too.
  const { pool, prisma } = (requestSide ?? jobSide)!;
  const jobs = await JobQueue.start({ pooled: opts.databaseUrl, direct: directUrl }, log, { work: role !== 'api' }, jobDefinitions);
  const serving = role !== 'worker';
  const notifier = serving ? await PaymentNotifier.start(directUrl, log) : null;
  // Only API processes read reports and lists; workers decide money and stay on the primary.
  const readUrl = opts.readUrl === undefined ? config.databaseReadUrl : opts.readUrl;
  const reads = serving && readUrl ? await ReadReplica.open(readUrl, { maxLagSeconds: config.databaseReadMaxLagSeconds, log }) : null;
  const deps: Deps = {
    config,
    prisma,
    pool,
    // An `all` process's job pool, for its /metrics.
    jobPool: requestSide && jobSide ? jobSide.pool : undefined,
    reads,
    log,
    secrets: new SecretBox(opts.secretKey),
    jobs,
    lookup: opts.lookup,
    notifier,
    limits: serving ? new RateLimits(pool, config, log) : null,
  };
  // Jobs and sweeps on the job pool.
  const jobDeps: Deps | null = jobSide ? { ...deps, pool: jobSide.pool, prisma: jobSide.prisma, jobPool: undefined } : null;
  if (jobDeps) await jobs.work(jobDeps, jobDefinitions);
  const expirySweep = jobDeps ? startExpirySweep(jobDeps) : null;
  const lateWindowSweep = jobDeps ? startLateWindowSweep(jobDeps) : null;
  // The chat bots' long polls (docs/notifications.md): workers only, and only for a bot whose token is set.
  const chatBots = jobDeps ? startChatBots(jobDeps) : null;
  const http = role === 'worker' ? null : await startHttpServer(deps, opts.port ?? config.port, opts.host);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Stop taking work first, let in-flight requests and jobs finish, then close the pools.
      await notifier?.stop();
      await http?.close();
      await expirySweep?.stop();
      await lateWindowSweep?.stop();
      await chatBots?.stop();
      await jobs.stop();
      await deps.limits?.stop();
      await reads?.stop();
      for (const side of sides.values()) {
        await side.prisma.$disconnect();
        await side.pool.end();
      }
    })());
  return { deps, http, stop };
}
