import { call, CALLBACK, machine, percentile, seedShop, spawnWorker, startBench, startReceiver } from './support.js';

/**
 * Merchant A's endpoint answers in 9 s and 40 of A's events are queued; merchant B then has one
 * event a second for 20 s. How long after its event does each of B's webhooks arrive (target:
 * within 1 s), and how many of A's attempts were ever in flight at once? One worker process.
 */
const A_EVENTS = 40;
const B_EVENTS = 20;
const SLOW_MS = 9_000;

const setup = await startBench();
const receiver = await startReceiver((path) => (path === '/a' ? SLOW_MS : 0));
try {
  const a = await seedShop(setup, { sandbox: true, webhookUrl: `${receiver.url}/a` });
  const b = await seedShop(setup, { sandbox: true, webhookUrl: `${receiver.url}/b` });
  const confirm = async (apiKey: string, amount: number) => {
    const p = await call<{ id: string }>(setup.baseUrl, 'POST', '/v1/payments', apiKey, { amount, callbackUrl: CALLBACK });
    await call(setup.baseUrl, 'POST', '/v1/sandbox/deposits', apiKey, { paymentId: p.id });
    return { id: p.id, at: Date.now() };
  };
  // A's events are queued before any worker runs: the worst case, a backlog already waiting.
  for (let i = 0; i < A_EVENTS; i++) await confirm(a.apiKey, 100_000 + i * 1_000);
  const worker = await spawnWorker(setup.databaseUrl);
  const sent: { id: string; at: number }[] = [];
  for (let i = 0; i < B_EVENTS; i++) {
    sent.push(await confirm(b.apiKey, 100_000 + i * 1_000));
    await new Promise((r) => setTimeout(r, 1_000));
  }
  await new Promise((r) => setTimeout(r, 2_000));
  const latency = sent
    .map((s) => (receiver.hits.find((h) => h.path === '/b' && h.json?.paymentId === s.id)?.at ?? Number.POSITIVE_INFINITY) - s.at)
    .sort((x, y) => x - y);
  const aDone = receiver.hits.filter((h) => h.path === '/a').length;
  await worker.stop();
  console.log(
    [
      `### fairness (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `- ${machine(setup.dbLabel)}; one worker process (default WEBHOOK_CONCURRENCY, WEBHOOK_ENDPOINT_CONCURRENCY)`,
      `- A: ${A_EVENTS} events queued, endpoint answers in ${SLOW_MS / 1000} s; B: ${B_EVENTS} events, one a second`,
      '',
      '| B webhooks received | B latency p50 ms | max ms | A attempts started in the run | A peak in flight |',
      '|---:|---:|---:|---:|---:|',
      `| ${latency.filter(Number.isFinite).length} / ${B_EVENTS} | ${percentile(latency, 50)} | ${latency.at(-1)} | ${aDone} | ${receiver.peak.get('/a') ?? 0} |`,
      '',
    ].join('\n'),
  );
  if ((latency.at(-1) ?? Infinity) > 1_000) process.exitCode = 1;
} finally {
  await receiver.stop();
  await setup.stop();
}
