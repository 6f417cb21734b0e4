import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Router } from 'express';
import { Router as makeRouter } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type pg from 'pg';
import type { ReadReplica } from '../db/read-pool.js';
import type { Deps } from '../domain/deps.js';
import { overdueSeconds } from '../domain/payments/store/locks.js';
import { lastRetentionRun } from '../domain/retention/retention.js';
import { AppError } from '../errors.js';
import { sendError } from './errors.js';

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Prometheus metrics of this process: the runtime's defaults and every HTTP request by route. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  // Label by the matched route pattern, never the raw path (ids and tokens would explode cardinality).
  const measure: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      const route = (res.locals.routePattern as string | undefined) ?? (req.route?.path ? String(req.route.path) : req.baseUrl || 'unmatched');
      end({ method: req.method, route });
      requests.inc({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };

  const routes = (deps: Deps): Router => {
    if (deps.reads) replicaGauges(registry, deps.reads);
    sweepGauges(registry, deps);
    retentionGauges(registry, deps);
    poolMetrics(registry, deps.pool);
    if (deps.jobPool) jobPoolMetrics(registry, deps.jobPool);
    const router = makeRouter();
    router.get('/metrics', async (req, res) => {
      const token = deps.config.metricsToken;
      // Production without a token: as if there were no such route. Elsewhere it stays open for dev.
      if (!token && deps.config.nodeEnv === 'production') {
        sendError(res, new AppError('not_found', `No route for ${req.method} ${req.path}.`));
        return;
      }
      if (token && !sameSecret(req.headers.authorization ?? '', `Bearer ${token}`)) {
        sendError(res, new AppError('unauthorized', 'A valid credential is required: Authorization: Bearer $METRICS_TOKEN.'));
        return;
      }
      res.type(registry.contentType).send(await registry.metrics());
    });
    return router;
  };
  /** A gauge read when scraped. */
  const observe = (name: string, help: string, read: () => number) => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  };
  return { measure, routes, observe };
}

/**
 * How far behind each sweep is (`overdueSeconds`), read on the primary at scrape time. The sweeps
 * run in worker processes only (jobs/expire-due.ts, jobs/end-late-windows.ts), so this is what shows
 * that none runs, or that one payment is stuck (src/domain/payments/sweeps.ts): the expiry's grows
 * past the 5 s of docs/integration.md "1. Create a payment". NaN when the database did not answer.
 */
function sweepGauges(registry: Registry, deps: Deps) {
  const gauges = [
    ['gateway_expiry_overdue_seconds', 'expiry', 'Seconds since the deadline of the oldest payment still pending past it (0: none); over 5 means no worker is expiring payments in time'],
    ['gateway_late_window_overdue_seconds', 'late-window', 'Seconds since the late window ended of the oldest live payment whose fee is still reserved (0: none); over 10 means no worker is giving fees back'],
  ] as const;
  for (const [name, sweep, help] of gauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        try {
          this.set(await overdueSeconds(deps.pool, sweep));
        } catch {
          this.set(Number.NaN);
        }
      },
    });
  }
}

/**
 * What the last retention run removed, by kind, and when it ran (docs/operations.md "Retention"),
 * read from its row at scrape time: the job runs in one worker, any process may be scraped.
 */
function retentionGauges(registry: Registry, deps: Deps) {
  new Gauge({
    name: 'gateway_retention_removed',
    help: 'Rows the last retention run removed or blanked, by kind (sms_bodies, webhook_bodies, sessions, login_attempts, set_password_tokens, jobs, chat_prompts)',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const last = await lastRetentionRun(deps.pool).catch(() => null);
      if (!last) return;
      for (const [kind, n] of Object.entries(last.removed)) this.set({ kind: kind.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) }, Number(n));
    },
  });
  new Gauge({
    name: 'gateway_retention_last_run_timestamp_seconds',
    help: 'When the last retention run ended (Unix seconds; absent before the first run)',
    registers: [registry],
    async collect() {
      const last = await lastRetentionRun(deps.pool).catch(() => null);
      if (last) this.set(last.ranAt.getTime() / 1000);
    },
  });
}

/**
 * The process's pool (DATABASE_URL, DATABASE_POOL_SIZE): connections open and idle, callers waiting
 * for one (a pool too small for the load), and connections opened since start. The last should stay
 * flat under steady load: it rises when connections are lost (a failover, PgBouncer restarting) or
 * when load grows past the idle ones, and each opening costs the server a new process (or
 * PgBouncer a login).
 */
function poolMetrics(registry: Registry, pool: pg.Pool) {
  const opened = new Counter({ name: 'gateway_db_connections_opened_total', help: 'Connections this process\'s pool opened to DATABASE_URL', registers: [registry] });
  pool.on('connect', () => opened.inc());
  poolGauges(registry, pool, 'gateway_db_pool', {
    connections: 'Connections in this process\'s pool (DATABASE_POOL_SIZE at most), by state: in_use or idle',
    waiting: 'Statements and transactions waiting for a connection of this process\'s pool (the scrape\'s own gauges that read the database count while they wait)',
  });
}

/** An `all` process's pool for its jobs and sweeps, apart from the request pool above. */
function jobPoolMetrics(registry: Registry, pool: pg.Pool) {
  poolGauges(registry, pool, 'gateway_db_job_pool', {
    connections: 'Connections in this process\'s pool for jobs and sweeps (an all process only), by state: in_use or idle',
    waiting: 'Jobs and sweeps waiting for a connection of this process\'s job pool (an all process only)',
  });
}

/** `<prefix>_connections{state}` (in_use, idle) and `<prefix>_waiting` of one pool, read at scrape time. */
function poolGauges(registry: Registry, pool: pg.Pool, prefix: string, help: { connections: string; waiting: string }) {
  new Gauge({
    name: `${prefix}_connections`,
    help: help.connections,
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: `${prefix}_waiting`,
    help: help.waiting,
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });
}

/**
 * DATABASE_READ_URL's replica, checked afresh at scrape time (one statement on the replica, 1 s at
 * most; the three gauges share the check in flight): `gateway_replica_up` 0 when it did not
 * answer, and then the lag is NaN (unknown, not zero).
 */
function replicaGauges(registry: Registry, replica: ReadReplica) {
  new Gauge({
    name: 'gateway_replica_lag_seconds',
    help: 'Seconds the read replica (DATABASE_READ_URL) is behind its primary: 0 when it has replayed all WAL it received; NaN when unreachable',
    registers: [registry],
    async collect() {
      const s = await replica.refresh();
      this.set(s.up && s.lagSeconds !== null ? s.lagSeconds : Number.NaN);
    },
  });
  new Gauge({
    name: 'gateway_replica_up',
    help: 'Whether the read replica answered its check (1) or not (0)',
    registers: [registry],
    async collect() {
      this.set((await replica.refresh()).up ? 1 : 0);
    },
  });
  new Gauge({
    name: 'gateway_replica_in_use',
    help: 'Whether exports, stats and dashboard lists read the replica now (1) or the primary (0: unreachable, cut off from its primary, or lagging beyond DATABASE_READ_MAX_LAG_SECONDS)',
    registers: [registry],
    async collect() {
      await replica.refresh();
      this.set(replica.usable ? 1 : 0);
    },
  });
}
