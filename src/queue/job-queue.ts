import { PgBoss, fromPrisma, type QueueOptions, type SendOptions } from 'pg-boss';
import type { Tx } from '../db/prisma.js';
import type { Logger } from '../logger.js';
import type { z } from 'zod';

/** A job kind: `jobs/<name>.ts` exports one. The handler must accept old payload shapes. */
export type JobDefinition<D = unknown> = {
  name: string;
  options: QueueOptions;
  /** Cron expression (UTC) for periodic jobs. */
  cron?: string;
  /** Also send one when a worker starts (catch-up after downtime). */
  runAtStart?: boolean;
  handler: (deps: D, data: unknown) => Promise<void>;
};

export type JobQueueRole = { work: boolean };

/**
 * A job whose payload is checked first: jobs outlive deploys, so an old or unreadable payload is
 * logged and dropped instead of failing forever.
 */
export function checkedJob<D extends { log: Logger }, S extends z.ZodType>(
  def: Omit<JobDefinition<D>, 'handler'> & { payload: S; run: (deps: D, data: z.output<S>) => Promise<void> },
): JobDefinition<D> {
  const { payload, run, ...rest } = def;
  return {
    ...rest,
    handler: async (deps, data) => {
      const parsed = payload.safeParse(data);
      if (!parsed.success) {
        deps.log.error({ job: def.name, data }, 'unreadable job payload, dropped');
        return;
      }
      await run(deps, parsed.data);
    },
  };
}

/**
 * pg-boss behind the few verbs the domain uses. `send` with a transaction commits or rolls back
 * the job together with the state change that needs it.
 */
export class JobQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly log: Logger,
  ) {}

  static async start(connectionString: string, log: Logger, role: JobQueueRole, definitions: JobDefinition<never>[]): Promise<JobQueue> {
    const boss = new PgBoss({
      connectionString,
      useListenNotify: true,
      max: 4,
      // Only workers run maintenance and cron; API processes just send.
      supervise: role.work,
      schedule: role.work,
      // Jobs whose worker died (kill -9 mid-delivery) are noticed and handed out again within ~10 s.
      superviseIntervalSeconds: 10,
      monitorIntervalSeconds: 10,
    });
    boss.on('error', (err) => log.error({ err }, 'job queue error'));
    await boss.start();
    for (const def of definitions) {
      await boss.createQueue(def.name, { ...def.options, notify: true });
    }
    return new JobQueue(boss, log);
  }

  async send(name: string, data: object, options: { tx?: Tx; startAfter?: Date; singletonKey?: string } = {}): Promise<string | null> {
    const sendOptions: SendOptions = {};
    if (options.startAfter) sendOptions.startAfter = options.startAfter;
    if (options.singletonKey) sendOptions.singletonKey = options.singletonKey;
    if (options.tx) sendOptions.db = fromPrisma(options.tx);
    return this.boss.send(name, data, sendOptions);
  }

  async work<D>(deps: D, definitions: JobDefinition<D>[]): Promise<void> {
    for (const def of definitions) {
      await this.boss.work(def.name, { batchSize: 1, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 }, async ([job]) => {
        if (!job) return;
        const started = Date.now();
        try {
          await def.handler(deps, job.data);
          this.log.debug({ job: def.name, id: job.id, ms: Date.now() - started }, 'job done');
        } catch (err) {
          this.log.warn({ err, job: def.name, id: job.id }, 'job failed; pg-boss will retry it');
          throw err;
        }
      });
      if (def.cron) await this.boss.schedule(def.name, def.cron, {});
      if (def.runAtStart) await this.boss.send(def.name, {}, { singletonKey: 'at-start', singletonSeconds: 30 });
    }
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
