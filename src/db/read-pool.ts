import pg from 'pg';
import type { Logger } from '../logger.js';
import { createPool } from './pool.js';
import { createPrisma, type PrismaClient } from './prisma.js';

/** The read pool's application_name, as the replica's pg_stat_activity and its logs show it. */
export const READ_POOL_NAME = 'gateway-read';
/** The replica check's connection (lag, recovery state): one per API process. */
export const REPLICA_CHECK_NAME = 'gateway-replica-check';

/**
 * What the replica says about itself, in one statement. Lag is 0 when it has replayed all the WAL
 * it received (an idle primary sends none, and `now() - pg_last_xact_replay_timestamp()` would
 * grow for ever), else the age of the last transaction it replayed. A server out of recovery (a
 * promoted standby, or DATABASE_READ_URL naming a primary) is never behind. `receiving`: a WAL
 * receiver runs (a row in pg_stat_wal_receiver, visible to any role); a standby without one has
 * lost its primary, and its "0" would only mean it has nothing more to replay.
 */
export const REPLICA_STATE_SQL = `SELECT pg_is_in_recovery() AS recovering,
       EXISTS (SELECT 1 FROM pg_stat_wal_receiver) AS receiving,
       (CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
             ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0) END)::float8 AS lag`;

export type ReplicaState = {
  /** The last check reached the replica. */
  up: boolean;
  /** Seconds behind the primary; null when the replica was not reached. */
  lagSeconds: number | null;
  /** In recovery with a WAL receiver, or a server out of recovery: it is current, or catching up. */
  streaming: boolean;
  /** Date.now() of the check. */
  checkedAt: number;
};

type Options = {
  /** Beyond this lag (or unreachable, or cut off from its primary) reads go to the primary. */
  maxLagSeconds: number;
  log: Logger;
  /** Read-pool connections: exports hold one each for as long as their reader takes. */
  poolSize?: number;
  /** Between background checks. */
  checkEveryMs?: number;
  /** A check that takes longer counts as the replica down. */
  checkTimeoutMs?: number;
};

const DOWN: ReplicaState = { up: false, lagSeconds: null, streaming: false, checkedAt: 0 };

/**
 * DATABASE_READ_URL: a streaming replica for reads that may lag (the rule is
 * in docs/operations.md "Read replica"). It has its own pool and a PrismaClient over it, and one
 * small connection that checks the replica every second; `usable` says whether reads may go there
 * now. Nothing here decides where a read goes: src/domain/reports/read-pool.ts does.
 */
export class ReadReplica {
  readonly pool: pg.Pool;
  readonly prisma: PrismaClient;
  private state: ReplicaState = DOWN;
  private checker: pg.Client | null = null;
  private checking: Promise<ReplicaState> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly checkEveryMs: number;
  private readonly checkTimeoutMs: number;

  private constructor(
    private readonly url: string,
    private readonly opts: Options,
  ) {
    this.checkEveryMs = opts.checkEveryMs ?? 1000;
    this.checkTimeoutMs = opts.checkTimeoutMs ?? 1000;
    // A replica that does not answer is found quickly: reads then go to the primary.
    this.pool = createPool(url, opts.poolSize ?? 6, { application_name: READ_POOL_NAME, connectionTimeoutMillis: 2000 });
    this.pool.on('error', (err) => opts.log.warn({ err }, 'read replica pool: idle connection lost'));
    this.prisma = createPrisma(this.pool);
  }

  /** Opens the pool and checks the replica once; an unreachable replica does not stop start-up. */
  static async open(url: string, opts: Options): Promise<ReadReplica> {
    const replica = new ReadReplica(url, opts);
    await replica.refresh();
    replica.timer = setInterval(() => void replica.refresh(), replica.checkEveryMs);
    replica.timer.unref();
    return replica;
  }

  /** The last check: reached, current enough, and fresh (a stalled checker never keeps reads on it). */
  get usable(): boolean {
    const s = this.state;
    return (
      !this.stopped &&
      s.up &&
      s.streaming &&
      s.lagSeconds !== null &&
      s.lagSeconds <= this.opts.maxLagSeconds &&
      Date.now() - s.checkedAt <= this.checkEveryMs * 3 + this.checkTimeoutMs
    );
  }

  get lastState(): ReplicaState {
    return this.state;
  }

  /** Checks the replica now (a check in flight is shared), within `checkTimeoutMs`. */
  refresh(): Promise<ReplicaState> {
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async check(): Promise<ReplicaState> {
    if (this.stopped) return this.state;
    let timeout: NodeJS.Timeout | undefined;
    try {
      const read = (async () => {
        this.checker ??= await this.connectChecker();
        const { rows } = await this.checker.query<{ recovering: boolean; receiving: boolean; lag: number }>(REPLICA_STATE_SQL);
        return rows[0]!;
      })();
      const timedOut = new Promise<never>((_, reject) => {
        timeout = setTimeout(() => reject(new Error(`replica check took over ${this.checkTimeoutMs} ms`)), this.checkTimeoutMs);
      });
      const row = await Promise.race([read, timedOut]);
      const streaming = !row.recovering || row.receiving;
      if (this.state.up && !streaming) this.opts.log.warn('read replica has no WAL receiver (its primary is gone?): reads go to the primary');
      this.state = { up: true, lagSeconds: row.lag, streaming, checkedAt: Date.now() };
    } catch (err) {
      if (this.state.up || this.state.checkedAt === 0) this.opts.log.warn({ err }, 'read replica unreachable: reads go to the primary');
      // A connection that failed or hung is dropped; the next check opens a new one.
      const dead = this.checker;
      this.checker = null;
      dead?.end().catch(() => undefined);
      this.state = { ...DOWN, checkedAt: Date.now() };
    } finally {
      clearTimeout(timeout);
    }
    return this.state;
  }

  private async connectChecker(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: REPLICA_CHECK_NAME,
      connectionTimeoutMillis: this.checkTimeoutMs,
      statement_timeout: this.checkTimeoutMs,
      keepAlive: true,
    });
    client.on('error', () => {
      if (this.checker === client) this.checker = null;
    });
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    return client;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.checking?.catch(() => undefined);
    await this.checker?.end().catch(() => undefined);
    await this.prisma.$disconnect();
    await this.pool.end();
  }
}
