import { readFileSync } from 'node:fs';
import pg from 'pg';
import { machine, seedShop, spawnRole, startBench } from './support.js';

/**
 * Issue 20: exports stream in constant memory. 100,000 payments (one INSERT … SELECT
 * generate_series) are exported through the real HTTP server, run as its own process (`npm run
 * start:api`), as CSV (plain and gzip, as a browser asks) and as XLSX; for each: the time to the
 * last byte, the bytes, and the server's resident memory (sampled every 20 ms, and the kernel's
 * high-water mark). Targets: under 10 s and under 150 MB RSS. `npm run bench -- export`
 * (EXPORT_ROWS to change 100,000). Nothing here is a test: it prints figures for docs/BENCHMARKS.md.
 */
const ROWS = Number(process.env.EXPORT_ROWS ?? 100_000);
const TARGET_SECONDS = 10;
const TARGET_MB = 150;

const mb = (kb: number) => kb / 1024;

/** VmRSS and VmHWM (peak) of a process, in kB, from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

async function seedPayments(db: pg.Client, shop: { projectId: string }): Promise<void> {
  const { rows } = await db.query<{ merchant_id: string; card_id: string }>(
    'SELECT p.merchant_id, c.id AS card_id FROM projects p JOIN cards c ON c.project_id = p.id WHERE p.id = $1 LIMIT 1',
    [shop.projectId],
  );
  const { merchant_id: merchantId, card_id: cardId } = rows[0]!;
  // A sandbox shop (seedShop's live set-up needs more); a quarter each confirmed, expired, canceled
  // and pending, over the last 30 days; Persian order ids.
  await db.query(
    `INSERT INTO payments (project_id, merchant_id, card_id, status, amount_requested, code, amount_final, amount_mode, currency,
                           order_id, payer_phone, payer_card_last4, token, created_at, expires_at, late_until,
                           confirmed_at, confirmation_source, amount_received, canceled_at, expired_at, sandbox, fee_amount, fee_state)
     SELECT $1, $2, $3, s.status, 100000 + (i % 1000) * 1000, 10 * (i % 9000), 100000 + (i % 1000) * 1000 + 10 * (i % 9000), 'unique_code', 'IRR',
            'سفارش-' || i, '0912' || lpad((i % 10000000)::text, 7, '0'), lpad((i % 10000)::text, 4, '0'), lpad(i::text, 43, 'B'),
            t.created, t.created + interval '15 minutes', t.created + interval '75 minutes',
            CASE WHEN s.status = 'confirmed' THEN t.created + interval '3 minutes' END,
            CASE WHEN s.status = 'confirmed' THEN 'manual' END,
            CASE WHEN s.status = 'confirmed' THEN 100000 + (i % 1000) * 1000 + 10 * (i % 9000) END,
            CASE WHEN s.status = 'canceled' THEN t.created + interval '1 minute' END,
            CASE WHEN s.status = 'expired' THEN t.created + interval '15 minutes' END,
            true, 0, 'none'
       FROM generate_series(1, $4::int) i
       CROSS JOIN LATERAL (SELECT (ARRAY['confirmed', 'expired', 'canceled', 'pending'])[1 + i % 4] AS status) s
       CROSS JOIN LATERAL (SELECT now() - interval '30 days' + i * (interval '30 days' / $4::int) AS created) t`,
    [shop.projectId, merchantId, cardId, ROWS],
  );
  await db.query('VACUUM ANALYZE payments');
}

type Run = { label: string; seconds: number; bytes: number; lines: number; peakSampledMb: number; hwmMb: number };

async function exportOnce(baseUrl: string, apiKey: string, pid: number, range: string, label: string, format: 'csv' | 'xlsx', gzip: boolean): Promise<Run> {
  let peakSampled = memoryOf(pid).rss;
  const sampler = setInterval(() => {
    peakSampled = Math.max(peakSampled, memoryOf(pid).rss);
  }, 20);
  const started = performance.now();
  const res = await fetch(`${baseUrl}/v1/exports/payments?format=${format}&${range}`, {
    headers: { authorization: `Bearer ${apiKey}`, 'accept-encoding': gzip ? 'gzip' : 'identity' },
  });
  if (res.status !== 200) throw new Error(`${label}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body!) {
    const buf = chunk as Uint8Array;
    bytes += buf.length;
    if (format === 'csv') for (const b of buf) if (b === 0x0a) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (format === 'csv' && lines !== ROWS + 1) throw new Error(`${label}: ${lines} lines, expected the header and ${ROWS} rows`);
  return { label, seconds, bytes, lines, peakSampledMb: mb(peakSampled), hwmMb: mb(memoryOf(pid).peak) };
}

const setup = await startBench();
const db = new pg.Client({ connectionString: setup.databaseUrl });
await db.connect();
try {
  const shop = await seedShop(setup, { sandbox: true });
  const seedStart = performance.now();
  // The payments span the 30 days before now; the export asks for exactly that range and a minute more.
  const range = `from=${encodeURIComponent(new Date(Date.now() - 30 * 86_400_000 - 60_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;
  await seedPayments(db, shop);
  process.stderr.write(`export: ${ROWS} payments inserted in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`);

  // Each format in a fresh API process, exported twice: the first shows the export's peak over an
  // idle server, the second that a finished export leaves nothing behind that the next one adds to.
  const nodeArgs = (process.env.EXPORT_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const formats = [
    ['CSV', 'csv', false],
    ['CSV, gzip on the wire', 'csv', true],
    ['XLSX', 'xlsx', false],
  ] as const;
  const runs: (Run & { idleMb: number; second: Run })[] = [];
  for (const [label, format, gzip] of formats) {
    const api = await spawnRole('api', setup.databaseUrl, {}, nodeArgs);
    try {
      const pid = api.child.pid!;
      const baseUrl = `http://127.0.0.1:${new URL(api.baseUrl).port}`;
      // The same settle time for every process before its idle figure is read.
      await new Promise((r) => setTimeout(r, 2000));
      const idle = memoryOf(pid);
      const first = await exportOnce(baseUrl, shop.apiKey, pid, range, label, format, gzip);
      const second = await exportOnce(baseUrl, shop.apiKey, pid, range, label, format, gzip);
      runs.push({ ...first, idleMb: mb(idle.rss), second });
    } finally {
      await api.stop();
    }
  }
  const ok = runs.every((r) => r.seconds < TARGET_SECONDS && r.second.seconds < TARGET_SECONDS && r.second.hwmMb < TARGET_MB);
  console.log(
    [
      `### export (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `- ${machine(setup.dbLabel)}; the API as its own process (\`npm run start:api\`: the production bundle, NODE_ENV=production${nodeArgs.length ? `, node ${nodeArgs.join(' ')}` : ''}), a fresh one per format; client in the bench process`,
      `- ${ROWS.toLocaleString('en')} sandbox payments of one project over 30 days, \`GET /v1/exports/payments\` of them all, twice per process`,
      '',
      '| format | server RSS idle MB | 1st: s to last byte | 1st: peak RSS sampled MB | 2nd: s | 2nd: peak RSS sampled MB | VmHWM after both MB | bytes (decoded) | CSV lines |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.map(
        (r) =>
          `| ${r.label} | ${r.idleMb.toFixed(0)} | ${r.seconds.toFixed(2)} | ${r.peakSampledMb.toFixed(0)} | ${r.second.seconds.toFixed(2)} | ${r.second.peakSampledMb.toFixed(0)} | ${r.second.hwmMb.toFixed(0)} | ${r.bytes.toLocaleString('en')} | ${r.lines ? r.lines.toLocaleString('en') : '–'} |`,
      ),
      '',
      `Targets: under ${TARGET_SECONDS} s and under ${TARGET_MB} MB of RSS (the process's high-water mark): ${ok ? 'met' : 'NOT MET'}; the exports' share (highest RSS sampled during the two exports − idle; VmHWM also counts start-up's own peak): ${runs.map((r) => `${r.label} +${(Math.max(r.peakSampledMb, r.second.peakSampledMb) - r.idleMb).toFixed(0)} MB`).join(', ')}.`,
    ].join('\n'),
  );
  if (!ok) process.exitCode = 1;
} finally {
  await db.end();
  await setup.stop();
}
