import pg from 'pg';
import { call, CALLBACK, inLanes, machine, percentile, seedShop, spawnRole, startBench, startReceiver } from './support.js';

/**
 * A steady 50 deposits a second for 60 s (sandbox simulated deposits: stored as bank messages and
 * matched by the same engine as a phone's SMS), each confirming one pending payment: how long from
 * the deposit request to its payment.confirmed webhook at the merchant (p50/p99), and how many
 * webhooks are still waiting when the load stops? One API process and one worker process, apart
 * from this one (which seeds, sends the load and receives the webhooks).
 */
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const COUNT = RATE * SECONDS;

const setup = await startBench();
const receiver = await startReceiver();
try {
  const shop = await seedShop(setup, { sandbox: true, webhookUrl: `${receiver.url}/hook`, settings: { maxCode: 9999, paymentTimeLimitSeconds: 3600 } });
  const ids: string[] = [];
  await inLanes(COUNT, 16, async (i) => {
    const p = await call<{ id: string }>(setup.baseUrl, 'POST', '/v1/payments', shop.apiKey, { amount: 100_000 + (i % 20) * 1_000_000, callbackUrl: CALLBACK });
    ids.push(p.id);
  });
  const worker = await spawnRole('worker', setup.databaseUrl);
  const api = await spawnRole('api', setup.databaseUrl);
  const sentAt = new Map<string, number>();
  const answeredAt = new Map<string, number>();
  const failures: string[] = [];
  const inFlight: Promise<void>[] = [];
  const started = Date.now();
  // Open loop: deposit i is sent at started + i / RATE whether or not earlier ones were answered.
  for (let i = 0; i < COUNT; i++) {
    const due = started + (i * 1000) / RATE;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    const id = ids[i]!;
    sentAt.set(id, Date.now());
    inFlight.push(
      call(api.baseUrl, 'POST', '/v1/sandbox/deposits', shop.apiKey, { paymentId: id }).then(
        () => void answeredAt.set(id, Date.now()),
        (err: Error) => void failures.push(err.message),
      ),
    );
  }
  const loadSeconds = (Date.now() - started) / 1000;
  const db = new pg.Client({ connectionString: setup.databaseUrl });
  await db.connect();
  const backlog = async () => Number((await db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`)).rows[0].n);
  const backlogAtEnd = await backlog();
  const unanswered = COUNT - receiver.hits.length;
  await Promise.all(inFlight);
  const drainStart = Date.now();
  while ((await backlog()) > 0 && Date.now() - drainStart < 60_000) await new Promise((r) => setTimeout(r, 100));
  const drainMs = Date.now() - drainStart;
  // More jobs than deliveries: attempts that went back to the queue (endpoint slots all taken, or retries).
  const jobs = Number((await db.query(`SELECT count(*) AS n FROM pgboss.job WHERE name = 'deliver-webhook'`)).rows[0].n);
  const attempts = (await db.query(`SELECT count(*) AS n, count(*) FILTER (WHERE response_status IS DISTINCT FROM 200) AS failed, string_agg(DISTINCT left(coalesce(error, ''), 60), ' | ') AS errors FROM webhook_attempts`)).rows[0];
  console.error(`attempts ${attempts.n}, failed ${attempts.failed}: ${attempts.errors}`);
  await db.end();
  await api.stop();
  await worker.stop();
  const received = receiver.hits.filter((h) => h.json?.paymentId && sentAt.has(h.json.paymentId));
  const latency = received.map((h) => h.at - sentAt.get(h.json!.paymentId!)!).sort((x, y) => x - y);
  // The worker's share: from the deposit's answer (its transaction committed) to the webhook.
  const afterCommit = received.map((h) => h.at - (answeredAt.get(h.json!.paymentId!) ?? Number.NaN)).sort((x, y) => x - y);
  const depositMs = [...answeredAt].map(([id, at]) => at - sentAt.get(id)!).sort((x, y) => x - y);
  console.log(
    [
      `### deposit-webhook (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `- ${machine(setup.dbLabel)}; one API process, one worker process, defaults`,
      `- ${RATE} simulated deposits/s for ${SECONDS} s (sent over ${loadSeconds.toFixed(1)} s), each confirming one payment; ${failures.length} failed requests; ${jobs} deliver-webhook jobs for ${COUNT} deliveries`,
      '',
      '| webhooks received | deposit → webhook p50 ms | p99 ms | max ms | deposit request p50 / p99 ms | deposit answered → webhook p50 / p99 ms | pending deliveries when the load stopped | webhooks not received then | drained after |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${latency.length} / ${COUNT} | ${percentile(latency, 50)} | ${percentile(latency, 99)} | ${latency.at(-1)} | ${percentile(depositMs, 50)} / ${percentile(depositMs, 99)} | ${percentile(afterCommit, 50)} / ${percentile(afterCommit, 99)} | ${backlogAtEnd} | ${unanswered} | ${(drainMs / 1000).toFixed(1)} s |`,
      '',
    ].join('\n'),
  );
  if (failures.length) console.log(`first failures:\n  ${failures.slice(0, 5).join('\n  ')}`);
  if (latency.length < COUNT || failures.length) process.exitCode = 1;
} finally {
  await receiver.stop();
  await setup.stop();
}
