import type { LookupFunction } from 'node:net';
import type { Config } from '../config.js';
import type pg from 'pg';
import type { PrismaClient } from '../db/prisma.js';
import type { ReadReplica } from '../db/read-pool.js';
import type { Logger } from '../logger.js';
import type { SecretBox } from './auth/secret-box.js';
import type { JobQueue } from '../queue/job-queue.js';
import type { PaymentNotifier } from '../events/payment-notifier.js';
import type { RateLimits } from './rate-limits.js';

/** What domain functions need from the outside world, built once per process. */
export type Deps = {
  config: Config;
  prisma: PrismaClient;
  /** The pool Prisma runs on, for the hot paths' typed SQL (statement(), src/db/statement.ts). */
  pool: pg.Pool;
  /** An `all` process's other pool, its jobs' and sweeps' (src/runtime.ts `poolsOf`): for /metrics only. */
  jobPool?: pg.Pool;
  /**
   * DATABASE_READ_URL's replica (API processes only), for reads that may lag; null or absent: none.
   * Never used directly: src/domain/reports/read-pool.ts picks it or the primary.
   */
  reads?: ReadReplica | null;
  log: Logger;
  secrets: SecretBox;
  jobs: JobQueue;
  /** Cross-process payment changes for subscriptions; null in worker-only processes. */
  notifier: PaymentNotifier | null;
  limits: RateLimits | null;
  /** DNS resolution for webhook targets; injectable because tests have no DNS. */
  lookup?: LookupFunction;
};
