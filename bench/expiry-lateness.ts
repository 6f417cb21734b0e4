import pg from 'pg';
import { call, CALLBACK, inLanes, machine, percentile, seedShop, spawnWorker, startBench } from './support.js';

/**
 * 1,000 pending payments whose deadlines fall in one second, one worker process: how late is each
 * expiry (expiredAt − expiresAt)? Target: p99 ≤ 2 s, max ≤ 5 s (the bound of docs/integration.md
 * "1. Create a payment"). The payments are created with a long time limit, then their deadlines are
 * moved into one second 5 s ahead: creating 1,000 takes longer than a second. The worker's expiry
 * sweep (jobs/expire-due.ts) finds them by their deadlines.
 */
const COUNT = Number(process.env.BENCH_PAYMENTS ?? 1000);
const LEAD_MS = 5_000;

const setup = await startBench();
try {
  const shop = await seedShop(setup, { sandbox: true, settings: { maxCode: 9999, paymentTimeLimitSeconds: 3600 } });
  const ids: string[] = [];
  await inLanes(COUNT, 16, async (i) => {
    const p = await call<{ id: string }>(setup.baseUrl, 'POST', '/v1/payments', shop.apiKey, { amount: 100_000 + (i % 10) * 1_000_000, callbackUrl: CALLBACK });
    ids.push(p.id);
  });
  const worker = await spawnWorker(setup.databaseUrl);
  const db = new pg.Client({ connectionString: setup.databaseUrl });
  await db.connect();
  const start = Date.now() + LEAD_MS;
  // Deadlines spread evenly over one second.
  await db.query(
    `WITH ranked AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM payments WHERE id = ANY($1::uuid[]))
     UPDATE payments p SET expires_at = to_timestamp($2::double precision / 1000) + make_interval(secs => (r.n % 1000) / 1000.0)
     FROM ranked r WHERE p.id = r.id`,
    [ids, start],
  );
  process.stderr.write(`expiry-lateness: ${COUNT} deadlines in [+${LEAD_MS / 1000} s, +${LEAD_MS / 1000 + 1} s)\n`);
  let done = 0;
  while (Date.now() < start + 60_000) {
    await new Promise((r) => setTimeout(r, 250));
    done = Number((await db.query(`SELECT count(*) AS n FROM payments WHERE id = ANY($1::uuid[]) AND status = 'expired'`, [ids])).rows[0].n);
    if (done === COUNT) break;
  }
  const rows = await db.query<{ ms: number }>(
    `SELECT extract(epoch FROM (expired_at - expires_at)) * 1000 AS ms FROM payments WHERE id = ANY($1::uuid[]) AND status = 'expired' ORDER BY 1`,
    [ids],
  );
  const ms = rows.rows.map((r) => Number(r.ms));
  await db.end();
  await worker.stop();
  const fmt = (v: number) => (v / 1000).toFixed(2);
  console.log(
    [
      `### expiry-lateness (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `- ${machine(setup.dbLabel)}; one worker process (default EXPIRY_CONCURRENCY), API in the bench process`,
      '',
      '| payments | expired | lateness p50 s | p99 s | max s |',
      '|---:|---:|---:|---:|---:|',
      `| ${COUNT} | ${done} | ${fmt(percentile(ms, 50))} | ${fmt(percentile(ms, 99))} | ${fmt(ms.at(-1) ?? Number.NaN)} |`,
      '',
    ].join('\n'),
  );
  if (done < COUNT || percentile(ms, 99) > 2_000 || (ms.at(-1) ?? Infinity) > 5_000) process.exitCode = 1;
} finally {
  await setup.stop();
}
