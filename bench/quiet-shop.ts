/**
 * `npm run bench -- quiet-shop`: a shop whose requests come seconds apart. One API process (no
 * worker in it, so nothing else touches its pool), one card; each round waits QUIET_SECONDS
 * (default 12, past pg-pool's old 10 s idle close) and times one REST create, then at once a
 * second create, the floor: the same request on a pool that has just been used. Reported: the
 * create after the quiet spell and the create right after it, their medians and their ratio.
 */
import { createMerchant } from '../src/domain/merchants/merchants.js';
import { operatorActor } from '../src/domain/auth/actor.js';
import { PRODUCTION_ENV } from '../test/support/process.js';
import { machine, seedProject, serviceArgs, startBench, startProcess, stopProcess, CALLBACK } from './support.js';

const QUIET_SECONDS = Number(process.env.QUIET_SECONDS ?? 12);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

const setup = await startBench();
try {
  const { merchantKey } = await createMerchant(setup.api.deps, operatorActor, { name: 'Quiet merchant', credit: 0 });
  const shop = await seedProject(setup.baseUrl, merchantKey, 'quiet shop', 1);
  await setup.api.stop();
  const env = { ...PRODUCTION_ENV, NODE_ENV: 'production', LOG_LEVEL: 'warn', DATABASE_URL: setup.databaseUrl, SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789', PORT: '0' };
  const service = await startProcess([...serviceArgs(), '--role', 'api'], env, /listening on port (\d+)/);
  const base = `http://127.0.0.1:${service.match[1]}`;
  let n = 0;
  const create = async () => {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 100_000 + n++ * 10_000, callbackUrl: CALLBACK }),
    });
    await res.text();
    if (res.status !== 201) throw new Error(`create answered ${res.status}`);
    return performance.now() - t0;
  };
  await create(); // the process's own first request (modules, caches) is not what is measured
  const quiet: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    await new Promise((r) => setTimeout(r, QUIET_SECONDS * 1000));
    quiet.push(await create());
    warm.push(await create());
  }
  await stopProcess(service.child);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
  console.log(`- machine: ${machine(setup.dbLabel)}`);
  console.log(`- one API process (npm start's bundle, --role api), ${ROUNDS} rounds, ${QUIET_SECONDS} s quiet before each`);
  console.log(`| create | median ms | each round, ms |\n|---|---:|---|`);
  console.log(`| after ${QUIET_SECONDS} s quiet | ${median(quiet).toFixed(1)} | ${list(quiet)} |`);
  console.log(`| right after it (floor) | ${median(warm).toFixed(1)} | ${list(warm)} |`);
  console.log(`\nquiet ÷ floor: ${(median(quiet) / median(warm)).toFixed(2)}`);
} finally {
  await setup.stop();
}
