import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `npm run bench -- <scenario>`: each scenario is its own script, run in a fresh process with its own database. */
const SCENARIOS: Record<string, { file: string; what: string }> = {
  'create-payment': { file: 'create-payment.ts', what: 'REST hot paths under 32 connections (appends to bench/RESULTS.md)' },
  'expiry-lateness': { file: 'expiry-lateness.ts', what: '1,000 payments expiring in one second, one worker: lateness p50/p99/max' },
  'deposit-webhook': { file: 'deposit-webhook.ts', what: '50 deposits/s for 60 s: deposit → webhook p50/p99, backlog at the end' },
  'hot-paths': { file: 'hot-paths.ts', what: 'create, GraphQL create, get, verify, checkout view, list: each against its floor, alternating; the one-phone create also at fixed rates, open loop (--profile: cpu profile of create)' },
  'cpu-per-request': { file: 'cpu-per-request.ts', what: "the service process's CPU per request (REST and GraphQL create, get, checkout view) at a fixed rate, alternating" },
  fairness: { file: 'fairness.ts', what: "merchant B's webhooks while A's 9 s endpoint has 40 events queued" },
  'sse-memory': { file: 'sse-memory.ts', what: '2,000 SSE subscriptions opened and closed: heap after GC vs before, listeners left' },
  subscriptions: { file: 'subscriptions.ts', what: '10,000 idle checkoutStatus subscriptions over SSE and graphql-ws: heap and RSS each, after close (SUBS_CYCLES: open/close cycles per process; --snapshot: retained objects)' },
  soak: { file: 'soak.ts', what: 'SOAK_MINUTES (10) of creates, SMS deposits, webhooks and 500 subscriptions: memory of API and worker, p99 per minute, errors' },
  export: { file: 'export.ts', what: '100,000 payments exported as CSV and XLSX over HTTP: time and peak RSS of the server process' },
  'quiet-shop': { file: 'quiet-shop.ts', what: 'a REST create after 12 s with no request (one API process), against one right after it' },
  growth: { file: 'growth.ts', what: 'a year of data (GROWTH_SCALE, default 0.01 of 10 M payments) generated in PostgreSQL: every hot path on it against an empty database, alternating; EXPLAIN (ANALYZE, BUFFERS), sizes (--expiry: the expiry deadline on both)' },
  failover: { file: 'failover.ts', what: 'kill -9 of the primary under load, synchronous standby promoted behind PgBouncer: failures, recovery, lost writes' },
};

const name = process.argv[2];
const scenario = name ? SCENARIOS[name] : undefined;
if (!scenario) {
  const list = Object.entries(SCENARIOS).map(([n, s]) => `  ${n.padEnd(16)} ${s.what}`).join('\n');
  console.error(`${name ? `unknown scenario "${name}"` : 'name a scenario'}: npm run bench -- <scenario>\n${list}`);
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The service runs as `npm start` runs it: the production bundle, built from the sources now.
const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const file = path.join(root, 'bench', scenario.file);
const run = spawnSync(process.execPath, ['--import', 'tsx', file, ...process.argv.slice(3)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
