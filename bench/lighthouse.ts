import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse, { desktopConfig, type Flags } from 'lighthouse';
import { loadConfig } from '../src/config.js';
import { ensureDatabase, freePort, startEmbeddedPostgres, type EmbeddedServer } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { operatorActor } from '../src/domain/auth/actor.js';
import { ensureDemo } from '../src/domain/demo/demo.js';
import { createPayment } from '../src/domain/payments/create-payment.js';
import { createLogger } from '../src/logger.js';
import { startRuntime, type Runtime } from '../src/runtime.js';

/**
 * Lighthouse (the npm package) against Debian's Chromium, desktop and mobile, for the two hosted
 * pages: /pay/{token} and /l/{slug}. Starts the service on a throwaway embedded Postgres; nothing
 * leaves the machine. `npm run lighthouse -- --write` also writes docs/bench-lighthouse.md.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const SECRET_KEY = 'bench-secret-key-0123456789abcdef0123456789';
const DOC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'bench-lighthouse.md');

type Row = { page: string; formFactor: 'desktop' | 'mobile'; scores: Record<string, number>; metrics: Record<string, string>; failing: string[] };

async function startChromium(userDataDir: string): Promise<{ port: number; child: ChildProcess; version: string }> {
  const port = await freePort();
  const child = spawn(CHROMIUM, [...CHROME_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${userDataDir}`, 'about:blank'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const info = await fetch(`http://127.0.0.1:${port}/json/version`).then((r) => (r.ok ? (r.json() as Promise<{ Browser: string }>) : null), () => null);
    if (info) return { port, child, version: info.Browser };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`Chromium at ${CHROMIUM} did not open its debugging port`);
}

async function audit(url: string, port: number, formFactor: Row['formFactor']): Promise<Omit<Row, 'page'>> {
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
  const metric = (id: string) => lhr.audits[id]?.displayValue ?? '–';
  const metrics = { FCP: metric('first-contentful-paint'), LCP: metric('largest-contentful-paint'), TBT: metric('total-blocking-time'), CLS: metric('cumulative-layout-shift') };
  // Audits that cost points, so a score under 100 says why.
  const failing = CATEGORIES.flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${c}: ${ref.id} (${lhr.audits[ref.id]?.displayValue ?? lhr.audits[ref.id]?.score})`),
  );
  return { formFactor, scores, metrics, failing };
}

function table(rows: Row[]): string {
  const head = '| page | form factor | performance | accessibility | best practices | FCP | LCP | TBT | CLS |\n|---|---|---|---|---|---|---|---|---|';
  const lines = rows.map(
    (r) =>
      `| \`${r.page}\` | ${r.formFactor} | ${r.scores.performance} | ${r.scores.accessibility} | ${r.scores['best-practices']} | ${r.metrics.FCP} | ${r.metrics.LCP} | ${r.metrics.TBT} | ${r.metrics.CLS} |`,
  );
  return [head, ...lines].join('\n');
}

async function main() {
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-lighthouse-'));
  let server: EmbeddedServer | undefined;
  let runtime: Runtime | undefined;
  let chromium: ChildProcess | undefined;
  try {
    server = await startEmbeddedPostgres({ dir: path.join(tempDir, 'pg'), port: await freePort(), fast: true });
    const databaseUrl = await ensureDatabase(server.serverUrl, 'gateway_lighthouse');
    await migrate(databaseUrl);
    const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, SECRET_KEY, PORT: '0' });
    runtime = await startRuntime({ config, databaseUrl, secretKey: SECRET_KEY, role: 'api', log: createLogger(config.logLevel), port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${runtime.http!.port}`;

    const demo = await ensureDemo(runtime.deps, operatorActor);
    const actor = { kind: 'project' as const, projectId: demo.projectId, merchantId: demo.merchantId, sandbox: true, keyId: 'lighthouse' };
    const { token } = await createPayment(runtime.deps, actor, { amount: 250_000, callbackUrl: 'https://example.com/demo-return', orderId: 'lighthouse-1', description: 'Lighthouse run' });
    const pages = [`/pay/${token}`, `/l/${demo.linkSlug}`];

    const browser = await startChromium(path.join(tempDir, 'chromium'));
    chromium = browser.child;
    const rows: Row[] = [];
    for (const page of pages) {
      for (const formFactor of ['desktop', 'mobile'] as const) {
        rows.push({ page: page.replace(token, '{token}'), ...(await audit(`${baseUrl}${page}`, browser.port, formFactor)) });
      }
    }
    console.log(table(rows));
    for (const r of rows.filter((row) => row.failing.length)) console.log(`\n${r.page} (${r.formFactor}) loses points on:\n  ${r.failing.join('\n  ')}`);
    if (process.argv.includes('--write')) {
      const version = (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version;
      await writeFile(DOC, `# Lighthouse: the hosted pages\n\n\`npm run lighthouse\` (bench/lighthouse.ts): Lighthouse ${version} from npm against Debian's Chromium (${browser.version}, \`${CHROMIUM}\`, flags \`${CHROME_FLAGS.join(' ')}\`), no network, the service on loopback with an embedded Postgres. Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores. Mobile is Lighthouse's default profile (emulated phone, 4× CPU slowdown, simulated slow 4G); desktop is its desktop config.\n\n${table(rows)}\n`);
      console.log(`\nwrote ${path.relative(process.cwd(), DOC)}`);
    }
  } finally {
    chromium?.kill();
    await runtime?.stop();
    await server?.stop();
    await rm(tempDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
