import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse, { desktopConfig, type Flags } from 'lighthouse';
import { loadConfig } from '../src/config.js';
import { ensureDatabase, freePort, startEmbeddedPostgres, type EmbeddedServer } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { operatorActor } from '../src/domain/auth/actor.js';
import { createPayment } from '../src/domain/payments/create-payment.js';
import { startDemo } from '../src/flows/demo-activity.js';
import { createLogger } from '../src/logger.js';
import { startRuntime, type Runtime } from '../src/runtime.js';

/**
 * Lighthouse (the npm package) against Debian's Chromium, desktop and mobile, for the two hosted
 * pages (/pay/{token} and /l/{slug}) and the merchant dashboard (its login page, and signed in as
 * the demo owner: the overview and the payments list, over the demo's day of activity). Starts the
 * service on a throwaway embedded Postgres; nothing leaves the machine.
 *
 * `--only hosted` or `--only dashboard` runs one group, `--form-factor mobile` (or desktop) one
 * profile; `--runs N` audits each page N times and reports the run of median performance (the
 * others' scores beside it); `--save DIR` keeps each report's JSON there. Beside the scores it prints the JavaScript
 * each page loaded as sent (compressed) and decoded, from Lighthouse's own network log.
 * `npm run lighthouse -- --write` also writes docs/bench-lighthouse.md.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const SECRET_KEY = 'bench-secret-key-0123456789abcdef0123456789';
const DOC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'bench-lighthouse.md');

type Row = {
  page: string;
  formFactor: 'desktop' | 'mobile';
  scores: Record<string, number>;
  metrics: Record<string, string>;
  failing: string[];
  /** Scripts the page loaded: bytes on the wire (compressed) and decoded, and how many files. */
  js: { transfer: number; resource: number; files: number };
};
type Target = { page: string; url: string; cookie?: string; formFactors: Row['formFactor'][] };

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

async function audit(url: string, port: number, formFactor: Row['formFactor'], cookie?: string): Promise<Omit<Row, 'page'>> {
  // A signed-in page: the session cookie on every request of the run (the document, its scripts,
  // the GraphQL reads and the live stream), as the browser would send it.
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}) };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  // A signed-in page that fell back to the login page would score the wrong page.
  if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) throw new Error(`${url} ended on ${lhr.finalDisplayedUrl}`);
  const saveDir = process.argv.includes('--save') ? process.argv[process.argv.indexOf('--save') + 1] : undefined;
  if (saveDir) {
    await mkdir(saveDir, { recursive: true });
    await writeFile(path.join(saveDir, `${new URL(url).pathname.replace(/\W+/g, '_')}-${formFactor}.json`), JSON.stringify(lhr));
  }
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
  const metric = (id: string) => lhr.audits[id]?.displayValue ?? '–';
  const metrics = { FCP: metric('first-contentful-paint'), LCP: metric('largest-contentful-paint'), TBT: metric('total-blocking-time'), CLS: metric('cumulative-layout-shift') };
  // Audits that cost points, so a score under 100 says why.
  const failing = CATEGORIES.flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${c}: ${ref.id} (${lhr.audits[ref.id]?.displayValue ?? lhr.audits[ref.id]?.score})`),
  );
  type NetworkItem = { resourceType?: string; transferSize?: number; resourceSize?: number; url?: string };
  const requests = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []).filter((r) => r.resourceType === 'Script');
  const js = {
    transfer: requests.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    resource: requests.reduce((sum, r) => sum + (r.resourceSize ?? 0), 0),
    files: requests.length,
  };
  return { formFactor, scores, metrics, failing, js };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function jsTable(rows: Row[]): string {
  const head = '| page | form factor | scripts | JS sent (gzip) | JS decoded |\n|---|---|---|---|---|';
  return [head, ...rows.map((r) => `| \`${r.page}\` | ${r.formFactor} | ${r.js.files} | ${kb(r.js.transfer)} | ${kb(r.js.resource)} |`)].join('\n');
}

/** The demo owner's session cookie (`name=value`), from the same sign-in the login page posts. */
async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 204 || !cookie) throw new Error(`sign-in as ${email} answered ${res.status}`);
  return cookie;
}

function table(rows: Row[]): string {
  const runs = rows.some((r) => r.metrics.runs);
  const head = `| page | form factor | performance | accessibility | best practices | FCP | LCP | TBT | CLS |${runs ? ' performance of each run |' : ''}\n|---|---|---|---|---|---|---|---|---|${runs ? '---|' : ''}`;
  const lines = rows.map(
    (r) =>
      `| \`${r.page}\` | ${r.formFactor} | ${r.scores.performance} | ${r.scores.accessibility} | ${r.scores['best-practices']} | ${r.metrics.FCP} | ${r.metrics.LCP} | ${r.metrics.TBT} | ${r.metrics.CLS} |${runs ? ` ${r.metrics.runs ?? ''} |` : ''}`,
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

    // The demo as `npm start` seeds it: a day of payments in every state, deposits to review.
    const demo = await startDemo(runtime.deps, operatorActor);
    const actor = { kind: 'project' as const, projectId: demo.projectId, merchantId: demo.merchantId, sandbox: true, keyId: 'lighthouse' };
    const { token } = await createPayment(runtime.deps, actor, { amount: 250_000, callbackUrl: 'https://example.com/demo-return', orderId: 'lighthouse-1', description: 'Lighthouse run' });
    const cookie = await signIn(baseUrl, demo.ownerEmail, demo.ownerPassword);
    const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
    const only = arg('--only');
    const onlyFormFactor = arg('--form-factor');
    const runCount = Math.max(1, Number(arg('--runs') ?? 1));
    const both: Row['formFactor'][] = ['desktop', 'mobile'];
    const targets: Target[] = [
      ...(only === 'dashboard' ? [] : [
        { page: '/pay/{token}', url: `/pay/${token}`, formFactors: both },
        { page: `/l/${demo.linkSlug}`, url: `/l/${demo.linkSlug}`, formFactors: both },
      ]),
      ...(only === 'hosted' ? [] : [
        { page: '/dashboard/login', url: '/dashboard/login', formFactors: both },
        { page: '/dashboard (signed in)', url: '/dashboard', cookie, formFactors: both },
        { page: '/dashboard/payments (signed in)', url: '/dashboard/payments', cookie, formFactors: both },
        // The demo is a sandbox project: its day of activity shows on the test side (the mirror /dashboard/test/…).
        { page: '/dashboard/test (signed in, the demo’s data)', url: '/dashboard/test', cookie, formFactors: both },
        { page: '/dashboard/test/payments (signed in, the demo’s data)', url: '/dashboard/test/payments', cookie, formFactors: both },
      ]),
    ];

    const browser = await startChromium(path.join(tempDir, 'chromium'));
    chromium = browser.child;
    const rows: Row[] = [];
    for (const target of targets) {
      for (const formFactor of target.formFactors.filter((f) => !onlyFormFactor || f === onlyFormFactor)) {
        const runs: Omit<Row, 'page'>[] = [];
        for (let i = 0; i < runCount; i++) runs.push(await audit(`${baseUrl}${target.url}`, browser.port, formFactor, target.cookie));
        // The run with the median performance score stands for the page (a loaded machine varies).
        runs.sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0));
        const median = runs[Math.floor((runs.length - 1) / 2)]!;
        if (runs.length > 1) median.metrics.runs = runs.map((r) => r.scores.performance).join(' / ');
        rows.push({ page: target.page, ...median });
      }
    }
    console.log(table(rows));
    console.log(`\n${jsTable(rows)}`);
    for (const r of rows.filter((row) => row.failing.length)) console.log(`\n${r.page} (${r.formFactor}) loses points on:\n  ${r.failing.join('\n  ')}`);
    if (process.argv.includes('--write')) {
      const version = (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version;
      await writeFile(DOC, `# Lighthouse: the hosted pages and the dashboard\n\n\`npm run lighthouse\` (bench/lighthouse.ts): Lighthouse ${version} from npm against Debian's Chromium (${browser.version}, \`${CHROMIUM}\`, flags \`${CHROME_FLAGS.join(' ')}\`), no network, the service on loopback with an embedded Postgres. Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores. Mobile is Lighthouse's default profile (emulated phone, 4× CPU slowdown, simulated slow 4G); desktop is its desktop config. Dashboard pages marked signed in carry the demo owner's session cookie.\n\n${table(rows)}\n\nJavaScript each page loaded (Lighthouse's network log; sent is what crossed the wire, gzip):\n\n${jsTable(rows)}\n`);
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
