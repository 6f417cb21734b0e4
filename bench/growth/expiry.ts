import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { spawn } from 'node:child_process';
import { benchEnv, inLanes, percentile, SERVICE_ENTRY, untilItSays } from '../support.js';
import { PRODUCTION_NODE_FLAGS } from '../../test/support/process.js';
import { createPaymentRow, newPaymentId } from '../../src/domain/payments/store/create.js';

const COUNT = Number(process.env.BENCH_PAYMENTS ?? 1000);
const LEAD_MS = 5_000;

/** What the server did while a burst expired: its WAL (full-page images), the checkpointer's writes, and this database's reads from outside shared_buffers. */
type ServerCounters = { fpi: number; walBytes: number; checkpointerWrites: number; blocksRead: number; readsByTable: Map<string, number> };

async function serverCounters(pool: pg.Pool): Promise<ServerCounters> {
  const [wal, cp, db, tables] = await Promise.all([
    pool.query(`SELECT wal_fpi::float8 AS fpi, wal_bytes::float8 AS bytes FROM pg_stat_wal`),
    pool.query(`SELECT buffers_written::float8 AS written FROM pg_stat_checkpointer`),
    pool.query(`SELECT blks_read::float8 AS read FROM pg_stat_database WHERE datname = current_database()`),
    // Per table (its heap and TOAST) and per index, so a table's reads say which of its indexes made them.
    pool.query(`SELECT relname, (coalesce(heap_blks_read, 0) + coalesce(toast_blks_read, 0))::float8 AS read FROM pg_statio_user_tables
                UNION ALL SELECT indexrelname, idx_blks_read::float8 FROM pg_statio_user_indexes`),
  ]);
  return {
    fpi: wal.rows[0].fpi,
    walBytes: wal.rows[0].bytes,
    checkpointerWrites: cp.rows[0].written,
    blocksRead: db.rows[0].read,
    readsByTable: new Map(tables.rows.map((r) => [r.relname as string, r.read as number])),
  };
}

/**
 * With the server started with pg_stat_statements preloaded (BENCH_PG_SETTINGS=shared_preload_libraries=pg_stat_statements):
 * its counters reset before the burst, so the statements the burst ran can be listed after it.
 */
async function statementsReset(pool: pg.Pool): Promise<boolean> {
  const loaded = (await pool.query(`SELECT current_setting('shared_preload_libraries') LIKE '%pg_stat_statements%' AS on`)).rows[0].on as boolean;
  if (!loaded) return false;
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await pool.query('SELECT pg_stat_statements_reset()');
  return true;
}

/** This database's statements during the burst, by total time: calls, total and mean ms, blocks read and dirtied, the statement's start. */
async function topStatements(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query(
    `SELECT calls, total_exec_time AS total, mean_exec_time AS mean, shared_blks_read AS read, shared_blks_dirtied AS dirtied, wal_fpi AS fpi,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS q
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = current_database() ORDER BY total_exec_time DESC LIMIT 12`,
  );
  return rows.map((r) => `${Number(r.total).toFixed(0).padStart(6)} ms ${String(r.calls).padStart(5)}× ${Number(r.mean).toFixed(2).padStart(7)} ms read ${r.read} dirtied ${r.dirtied} fpi ${r.fpi}  ${r.q}`);
}

/** The difference, as the report prints it: full-page images, WAL MB, checkpointer buffers, blocks read (the four tables or indexes that read most). */
function counterDelta(a: ServerCounters, b: ServerCounters) {
  const tables = [...b.readsByTable]
    .map(([name, n]) => [name, n - (a.readsByTable.get(name) ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 4)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  return {
    fpi: String(b.fpi - a.fpi),
    walMb: ((b.walBytes - a.walBytes) / 2 ** 20).toFixed(0),
    checkpointerWrites: String(b.checkpointerWrites - a.checkpointerWrites),
    blocksRead: `${b.blocksRead - a.blocksRead}${tables ? ` (${tables})` : ''}`,
  };
}

/** One worker process (`entry`: the bundle it runs) on the database, started once it says it runs. */
async function startWorker(url: string, entry: string) {
  const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, entry, '--role', 'worker'], { env: { ...process.env, ...benchEnv(url) }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  await untilItSays(child, (out) => (out.includes('worker running') ? true : undefined));
  return { stop: async () => { child.kill('SIGTERM'); await exited; } };
}

/**
 * Before the bursts: the payments the load scenarios left pending (900 s deadlines, falling due
 * in the minutes the bursts run) are made due now and expired by a worker, so each burst is what
 * it stands for, 1,000 payments due in one second and nothing else due. Without this, the first
 * bursts after the scenarios also expired 12,000-15,000 of them, earliest first, ahead of their own
 * (docs/BENCHMARKS.md "Scale 1: the expiry burst after load, explained"). Answers how many and how
 * long the worker took: a sustained expiry rate of its own.
 */
export async function drainDue(url: string, log: (s: string) => void, entry: string = SERVICE_ENTRY): Promise<{ drained: number; seconds: number }> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const due = `status = 'pending' AND expires_at <= now()`;
    await pool.query(`UPDATE payments SET expires_at = now() WHERE status = 'pending' AND expires_at <= now() + interval '30 minutes'`);
    const drained = Number((await pool.query(`SELECT count(*) AS n FROM payments WHERE ${due}`)).rows[0].n);
    const before = await serverCounters(pool);
    const t0 = Date.now();
    const worker = await startWorker(url, entry);
    while (Number((await pool.query(`SELECT count(*) AS n FROM payments WHERE ${due}`)).rows[0].n) > 0 && Date.now() < t0 + 600_000) {
      await new Promise((r) => setTimeout(r, 250));
    }
    await worker.stop();
    const seconds = (Date.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 1_100));
    const server = counterDelta(before, await serverCounters(pool));
    log(`  drained ${drained} payments falling due on ${new URL(url).pathname} in ${seconds.toFixed(1)} s; WAL ${server.walMb} MB, ${server.fpi} full-page images, read ${server.blocksRead}`);
    return { drained, seconds };
  } finally {
    await pool.end();
  }
}

/**
 * bench/expiry-lateness.ts on a given database: COUNT pending payments of `shop` (made by the
 * service's own create statement), their deadlines moved into one second LEAD_MS ahead, one worker
 * process started on the database (`entry`: the bundle it runs, `npm start`'s by default; another
 * for an A/B of two builds): how late each expiry is (expired_at − expires_at), in seconds.
 */
export async function expiryLateness(url: string, shop: { projectId: string }, log: (s: string) => void, entry: string = SERVICE_ENTRY) {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  const ids: string[] = [];
  try {
    // Other payments of the database falling due while the burst runs (before it, or in the minute it
    // is given): the same worker expires them too, earliest first, so they go ahead of the burst.
    const othersDue = Number(
      (await pool.query(`SELECT count(*) AS n FROM payments WHERE status = 'pending' AND expires_at <= now() + make_interval(secs => $1)`, [(LEAD_MS + 60_000) / 1000])).rows[0].n,
    );
    await inLanes(COUNT, 8, async (i) => {
      const row = await createPaymentRow(pool, {
        // The service's own ids (time-ordered); GROWTH_EXPIRY_IDS=random: version 4, as before migration time_ordered_ids.
        paymentId: process.env.GROWTH_EXPIRY_IDS === 'random' ? randomUUID() : newPaymentId(),
        projectId: shop.projectId,
        linkId: null,
        amount: BigInt(100_000 + (i % 10) * 1_000_000),
        currency: 'IRR',
        callbackUrl: 'https://shop.example.com/return',
        callbackHost: null,
        orderId: null,
        description: null,
        payerPhone: null,
        metadata: null,
        token: randomBytes(32).toString('base64url'),
        onlineMs: 86_400_000,
      });
      ids.push(row.id);
    });
    const worker = await startWorker(url, entry);
    const start = Date.now() + LEAD_MS;
    await pool.query(
      `WITH ranked AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM payments WHERE id = ANY($1::uuid[]))
       UPDATE payments p SET expires_at = to_timestamp($2::double precision / 1000) + make_interval(secs => (r.n % 1000) / 1000.0)
       FROM ranked r WHERE p.id = r.id`,
      [ids, start],
    );
    const before = await serverCounters(pool);
    const statements = await statementsReset(pool);
    let done = 0;
    while (Date.now() < start + 60_000) {
      await new Promise((r) => setTimeout(r, 250));
      done = Number((await pool.query(`SELECT count(*) AS n FROM payments WHERE id = ANY($1::uuid[]) AND status = 'expired'`, [ids])).rows[0].n);
      if (done === COUNT) break;
    }
    await worker.stop();
    // A backend's statistics reach the views when it goes idle or exits (the worker's have exited).
    await new Promise((r) => setTimeout(r, 1_100));
    const server = counterDelta(before, await serverCounters(pool));
    if (statements) for (const line of await topStatements(pool)) log(`    ${line}`);
    const { rows } = await pool.query<{ ms: number }>(
      `SELECT extract(epoch FROM (expired_at - expires_at)) * 1000 AS ms FROM payments WHERE id = ANY($1::uuid[]) AND status = 'expired' ORDER BY 1`,
      [ids],
    );
    const ms = rows.map((r) => Number(r.ms));
    const s = (v: number | undefined) => ((v ?? Number.NaN) / 1000).toFixed(2);
    log(`  expiry on ${new URL(url).pathname} (${entry}): ${done}/${COUNT} expired, p99 ${s(percentile(ms, 99))} s; ${othersDue} other payments due; WAL ${server.walMb} MB, ${server.fpi} full-page images, checkpointer wrote ${server.checkpointerWrites}, read ${server.blocksRead}`);
    return { count: COUNT, expired: done, p50: s(percentile(ms, 50)), p99: s(percentile(ms, 99)), max: s(ms.at(-1)), othersDue, ...server };
  } finally {
    await pool.end();
  }
}
