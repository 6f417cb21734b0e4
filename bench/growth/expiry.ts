import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { spawn } from 'node:child_process';
import { benchEnv, inLanes, percentile, SERVICE_ENTRY, untilItSays } from '../support.js';
import { PRODUCTION_NODE_FLAGS } from '../../test/support/process.js';
import { createPaymentRow, newPaymentId } from '../../src/domain/payments/store/create.js';

const COUNT = Number(process.env.BENCH_PAYMENTS ?? 1000);
const LEAD_MS = 5_000;

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
    const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, entry, '--role', 'worker'], { env: { ...process.env, ...benchEnv(url) }, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((r) => child.once('exit', r));
    await untilItSays(child, (out) => (out.includes('worker running') ? true : undefined));
    const worker = { stop: async () => { child.kill('SIGTERM'); await exited; } };
    const start = Date.now() + LEAD_MS;
    await pool.query(
      `WITH ranked AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM payments WHERE id = ANY($1::uuid[]))
       UPDATE payments p SET expires_at = to_timestamp($2::double precision / 1000) + make_interval(secs => (r.n % 1000) / 1000.0)
       FROM ranked r WHERE p.id = r.id`,
      [ids, start],
    );
    let done = 0;
    while (Date.now() < start + 60_000) {
      await new Promise((r) => setTimeout(r, 250));
      done = Number((await pool.query(`SELECT count(*) AS n FROM payments WHERE id = ANY($1::uuid[]) AND status = 'expired'`, [ids])).rows[0].n);
      if (done === COUNT) break;
    }
    await worker.stop();
    const { rows } = await pool.query<{ ms: number }>(
      `SELECT extract(epoch FROM (expired_at - expires_at)) * 1000 AS ms FROM payments WHERE id = ANY($1::uuid[]) AND status = 'expired' ORDER BY 1`,
      [ids],
    );
    const ms = rows.map((r) => Number(r.ms));
    const s = (v: number | undefined) => ((v ?? Number.NaN) / 1000).toFixed(2);
    log(`  expiry on ${new URL(url).pathname} (${entry}): ${done}/${COUNT} expired, p99 ${s(percentile(ms, 99))} s`);
    return { count: COUNT, expired: done, p50: s(percentile(ms, 50)), p99: s(percentile(ms, 99)), max: s(ms.at(-1)) };
  } finally {
    await pool.end();
  }
}
