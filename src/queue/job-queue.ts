import { PgBoss, fromPrisma, type Job, type JobResult, type Queue, type SendOptions, type Warning, type WorkOptions } from 'pg-boss';
// pg-boss's own connection (pool, transactions, LISTEN with heartbeat and reconnect); pinned
// with pg-boss (12.35.0), whose package has no export map, so the path is stable for that version.
import PgBossDb from 'pg-boss/dist/db.js';
import type { Config } from '../config.js';
import type { Tx } from '../db/prisma.js';
import type { Logger } from '../logger.js';
import type { z } from 'zod';
import { jobPayloads, RETIRED_QUEUES, type JobData, type JobName, type JobPayload } from './job-types.js';

/**
 * How one process works a queue: `workers` fetch loops, each claiming up to `batchSize` jobs in one
 * query and running them concurrently, so up to workers × batchSize are in flight. A loop fetches
 * again only when its whole batch is done: slow jobs (webhooks) want batchSize 1 and more workers.
 */
export type WorkPlan = {
  workers: number;
  batchSize: number;
  /** Seconds between polls; delayed jobs (`startAfter`) are only found by polling. */
  pollSeconds: number;
  /** Only jobs of at least this priority: capacity that lower-priority jobs can never take. */
  minPriority?: number;
  /** Jobs in flight per group (`group` on send) in this process, over all plans of the queue; at most `workers`. */
  perGroup?: number;
};

/** A job kind: `jobs/<name>.ts` exports one. The handler must accept old payload shapes and be idempotent (a job may run twice). */
export type JobDefinition<D = unknown, K extends JobName = JobName> = {
  name: K;
  /** Queue settings, the policy included (a `stately` queue holds at most one queued job). */
  options: Omit<Queue, 'name'>;
  /** Cron expression (UTC) for periodic jobs. */
  cron?: string;
  /** Also send one when a worker starts (catch-up after downtime). */
  runAtStart?: boolean;
  /** How many run at once in one process; default `defaultPlan`. */
  plan?: (config: Config) => WorkPlan[];
  handler: (deps: D, data: unknown) => Promise<void>;
  /**
   * Work a whole fetched batch at once instead of job by job (one transaction for many, where the
   * work batches well). The batch succeeds or is retried together, so it must be idempotent too.
   */
  batchHandler?: (deps: D, data: unknown[]) => Promise<void>;
};

export type SendJobOptions = {
  tx?: Tx;
  startAfter?: Date;
  singletonKey?: string;
  priority?: number;
  group?: string;
};

/** JOB_CONCURRENCY in flight, over two loops so one slow batch does not stop the queue. */
export function defaultPlan(config: Config): WorkPlan[] {
  return [{ workers: Math.min(2, config.jobConcurrency), batchSize: Math.ceil(config.jobConcurrency / 2), pollSeconds: 1 }];
}

/** One fetch loop, one job at a time: periodic jobs that must not overlap themselves. */
export const oneAtATime = (): WorkPlan[] => [{ workers: 1, batchSize: 1, pollSeconds: 1 }];

function workOptions(plan: WorkPlan): WorkOptions {
  return {
    batchSize: plan.batchSize,
    localConcurrency: plan.workers,
    pollingIntervalSeconds: plan.pollSeconds,
    notifyPollingIntervalSeconds: plan.pollSeconds,
    // A loop that got all it asked for fetches again at once instead of sleeping out its poll
    // interval: a backlog drains at the speed of the handlers, not one batch per poll.
    burstWhenBatchFull: true,
    burstWhenReadyExceeds: 1,
    ...(plan.minPriority !== undefined ? { minPriority: plan.minPriority } : {}),
    // Counted in this process: a claim past it is handed back before its handler runs. pg-boss's
    // database-wide count (groupConcurrency) is read from one snapshot by every loop that a NOTIFY
    // wakes at once, so under load they all pass it together; a limit that must hold across
    // processes needs a lease in the handler as well (webhooks take one).
    ...(plan.perGroup !== undefined ? { localGroupConcurrency: plan.perGroup } : {}),
  };
}

export type JobQueueRole = { work: boolean };

// Each name's schema seen as a parser of that name's data, so a generic name still gets its own type.
const payloadSchemas: { [K in JobName]: z.ZodType<JobData<K>> } = jobPayloads;

/**
 * A job whose payload is checked first, against its schema in `jobPayloads`: jobs outlive deploys,
 * so an old or unreadable payload is logged and dropped instead of failing forever.
 */
export function checkedJob<D extends { log: Logger }, K extends JobName>(
  def: Omit<JobDefinition<D, K>, 'handler' | 'batchHandler'> & {
    run: (deps: D, data: JobData<K>) => Promise<void>;
    runBatch?: (deps: D, data: JobData<K>[]) => Promise<void>;
  },
): JobDefinition<D, K> {
  const { run, runBatch, ...rest } = def;
  const payload = payloadSchemas[def.name];
  const readable = (deps: D, data: unknown): data is JobData<K> => {
    if (payload.safeParse(data).success) return true;
    deps.log.error({ job: def.name, data }, 'unreadable job payload, dropped');
    return false;
  };
  return {
    ...rest,
    handler: async (deps, data) => {
      if (readable(deps, data)) await run(deps, payload.parse(data));
    },
    ...(runBatch
      ? { batchHandler: (deps: D, data: unknown[]) => runBatch(deps, data.filter((d) => readable(deps, d)).map((d) => payload.parse(d))) }
      : {}),
  };
}

const NO_JOB = '00000000-0000-0000-0000-000000000000';

/** pg-boss's LISTEN connection's application_name when it has a URL of its own (its pool's is `pgboss`). */
export const JOB_LISTENER_NAME = 'pgboss-listen';

/** Where pg-boss connects: its queries (may be a transaction pooler) and its LISTEN (a session of its own). */
export type JobQueueUrls = { pooled: string; direct: string };

/**
 * pg-boss's connection with its LISTEN moved to the direct URL. Everything else pg-boss sends is
 * pooler-safe: unnamed statements, transactions as one multi-statement query or on one pinned
 * client, transaction-scoped advisory locks and SET LOCAL only. Its wake-up LISTEN would be lost
 * behind a transaction pooler (and its heartbeat would find the channel gone and reconnect forever),
 * so that one connection goes straight to PostgreSQL. pg-boss opens and closes this like its own.
 */
class SplitDb extends PgBossDb {
  private readonly listener: PgBossDb;

  constructor(options: ConstructorParameters<typeof PgBossDb>[0], directUrl: string) {
    super(options);
    this.listener = new PgBossDb({ ...options, connectionString: directUrl, max: 1, application_name: JOB_LISTENER_NAME });
    // Listener failures (a lost connection, before it reconnects) surface as pg-boss errors.
    this.listener.on('error', (err) => this.emit('error', err));
  }

  override async open(): Promise<void> {
    await super.open();
    // Opening creates an empty pool; only `listen` below connects, with its own client.
    if (!this.listener.opened) await this.listener.open();
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.listener.opened) await this.listener.close();
  }

  override listen(channel: string, onNotification: (payload: string) => void, onReconnect: () => void) {
    return this.listener.listen(channel, onNotification, onReconnect);
  }
}

/**
 * pg-boss behind the few verbs the domain uses. `send` with a transaction commits or rolls back
 * the job together with the state change that needs it.
 */
export class JobQueue {
  /** False when pg-boss could not LISTEN and wakes workers by polling only (see `start`). */
  private listening = true;

  private constructor(
    private readonly boss: PgBoss,
    private readonly log: Logger,
  ) {}

  /**
   * pg-boss's queries go to `urls.pooled` (DATABASE_URL, which may be PgBouncer in transaction
   * mode), its wake-up LISTEN to `urls.direct` (DATABASE_DIRECT_URL).
   */
  static async start(urls: JobQueueUrls, log: Logger, role: JobQueueRole, definitions: JobDefinition<never>[]): Promise<JobQueue> {
    // Workers fetch and settle from many loops at once; an API process only sends.
    const max = role.work ? 10 : 4;
    const connection = { connectionString: urls.pooled, max, application_name: 'pgboss' };
    const boss = new PgBoss({
      ...(urls.direct === urls.pooled ? connection : { db: new SplitDb(connection, urls.direct) }),
      useListenNotify: true,
      max,
      // Only workers run maintenance and cron; API processes just send.
      supervise: role.work,
      schedule: role.work,
      // Jobs whose worker died (kill -9 mid-delivery) are noticed and handed out again within ~10 s.
      superviseIntervalSeconds: 10,
      monitorIntervalSeconds: 10,
    });
    const queue = new JobQueue(boss, log);
    boss.on('error', (err) => log.error({ err }, 'job queue error'));
    boss.on('warning', (warning: Warning) => {
      if ((warning.data as { type?: string }).type !== 'listen_notify_unavailable') return;
      queue.listening = false;
      log.warn({ warning }, 'job queue: no LISTEN connection (is DATABASE_DIRECT_URL a session, not a transaction pooler?); workers poll');
    });
    await boss.start();
    for (const def of definitions) {
      await boss.createQueue(def.name, { ...def.options, notify: true });
    }
    if (role.work) {
      for (const name of RETIRED_QUEUES) {
        if (await boss.getQueue(name)) {
          await boss.deleteQueue(name);
          log.info({ queue: name }, 'job queue: retired queue deleted');
        }
      }
    }
    // pg-boss looks each queue up (its table) on its own pool the first time this process sends to
    // it, and `createQueue` has just emptied that cache. A first send inside a transaction would then
    // need a second connection while holding one: through a transaction pooler whose server
    // connections are all held by such transactions, none could go on (test/db/pooler.test.ts). A
    // lookup of a job that cannot exist fills the cache now, outside any transaction; pg-boss's own
    // refresh keeps it filled after.
    for (const def of definitions) await boss.getJobById(def.name, NO_JOB);
    return queue;
  }

  /** Whether pg-boss's LISTEN connection is up, so new jobs wake workers at once rather than at the next poll. */
  get wakesOnNotify(): boolean {
    return this.listening;
  }

  async send<K extends JobName>(name: K, data: JobPayload<K>, options: SendJobOptions = {}): Promise<string | null> {
    const sendOptions: SendOptions = {};
    if (options.startAfter) sendOptions.startAfter = options.startAfter;
    if (options.singletonKey) sendOptions.singletonKey = options.singletonKey;
    if (options.priority !== undefined) sendOptions.priority = options.priority;
    if (options.group) sendOptions.group = { id: options.group };
    if (options.tx) sendOptions.db = fromPrisma(options.tx);
    return this.boss.send(name, data, sendOptions);
  }

  async work<D extends { config: Config }>(deps: D, definitions: JobDefinition<D>[]): Promise<void> {
    for (const def of definitions) {
      for (const plan of (def.plan ?? defaultPlan)(deps.config)) {
        await this.boss.work(def.name, { ...workOptions(plan), perJobResults: true }, (jobs: Job<unknown>[]) =>
          def.batchHandler ? this.runBatch(deps, def, jobs) : Promise.all(jobs.map((job) => this.run(deps, def, job))),
        );
      }
      if (def.cron) await this.boss.schedule(def.name, def.cron, {});
      if (def.runAtStart) await this.boss.send(def.name, {}, { singletonKey: 'at-start', singletonSeconds: 30 });
    }
  }

  /** One job of a batch, settled on its own: a failure retries that job only. */
  private async run<D>(deps: D, def: JobDefinition<D>, job: Job<unknown>): Promise<JobResult> {
    const started = Date.now();
    try {
      await def.handler(deps, job.data);
      this.log.debug({ job: def.name, id: job.id, ms: Date.now() - started }, 'job done');
      return { id: job.id, status: 'completed' };
    } catch (err) {
      this.log.warn({ err, job: def.name, id: job.id }, 'job failed; pg-boss will retry it');
      return { id: job.id, status: 'failed', output: { message: err instanceof Error ? err.message : String(err) } };
    }
  }

  /** A whole batch through the definition's batch handler: all completed, or all retried. */
  private async runBatch<D>(deps: D, def: JobDefinition<D>, jobs: Job<unknown>[]): Promise<JobResult[]> {
    const started = Date.now();
    try {
      await def.batchHandler!(deps, jobs.map((j) => j.data));
      this.log.debug({ job: def.name, count: jobs.length, ms: Date.now() - started }, 'job batch done');
      return jobs.map((job) => ({ id: job.id, status: 'completed' as const }));
    } catch (err) {
      this.log.warn({ err, job: def.name, count: jobs.length }, 'job batch failed; pg-boss will retry its jobs');
      const output = { message: err instanceof Error ? err.message : String(err) };
      return jobs.map((job) => ({ id: job.id, status: 'failed' as const, output }));
    }
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
