import type pg from 'pg';
import type { Db as JobDb } from 'pg-boss';
import type { JobQueue } from '../../../queue/job-queue.js';
import type { JobName, JobPayload } from '../../../queue/job-types.js';
import { inTransaction } from '../../../db/statement.js';

export const EXPIRY_QUEUE = 'expire-payment';

type Built = { sql: string; payload: string };

/**
 * pg-boss's insert of one job, as its own `send` builds it, handed to this adapter instead of a
 * connection: its statement and its JSON payload. No SQL of pg-boss is copied here.
 */
export async function buildJobInsert(jobs: JobQueue, name: string, data: object, startAfter: Date): Promise<Built> {
  let built: Built | undefined;
  const capture: JobDb = {
    executeSql: async (text, values) => {
      built = { sql: text, payload: String(values?.[0]) };
      return { rows: [{ id: null }] };
    },
  };
  await jobs.send(name as JobName, data as JobPayload<JobName>, { db: capture, startAfter });
  if (!built) throw new Error(`pg-boss built no insert for ${name}`);
  return built;
}

function functionBody(sql: string): string {
  // pg-boss's statement takes its payload as $1, which in PL/pgSQL is the function's first argument.
  if (sql.includes('$fn$') || (sql.match(/\$[0-9]+/g) ?? []).some((p) => p !== '$1')) {
    throw new Error('pg-boss insert statement has an unexpected shape; cannot install insert_expiry_job');
  }
  return `BEGIN\n  RETURN QUERY ${sql.trim()};\nEND;`;
}

const installed = new WeakMap<pg.Pool, Promise<void>>();

/**
 * Makes `insert_expiry_job(payload)` run pg-boss's current insert for the expiry queue, once per
 * process: replaced (under an advisory lock, so processes starting together do not collide) only
 * when its body differs, e.g. after a pg-boss upgrade changed the statement.
 */
export function ensureExpiryJobFunction(pool: pg.Pool, jobs: JobQueue): Promise<void> {
  let done = installed.get(pool);
  if (!done) {
    done = (async () => {
      const { sql } = await buildJobInsert(jobs, EXPIRY_QUEUE, { paymentId: null }, new Date());
      const body = functionBody(sql);
      await inTransaction(pool, async (client) => {
        await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('insert_expiry_job', 0))`);
        const { rows } = await client.query<{ src: string }>(`SELECT prosrc AS src FROM pg_proc WHERE proname = 'insert_expiry_job' AND pronamespace = 'public'::regnamespace`);
        if (rows[0]?.src === body) return;
        await client.query(`CREATE OR REPLACE FUNCTION insert_expiry_job(payload text) RETURNS SETOF uuid LANGUAGE plpgsql AS $fn$${body}$fn$`);
      });
    })();
    // A failed install is tried again by the next create.
    done.catch(() => installed.delete(pool));
    installed.set(pool, done);
  }
  return done;
}
