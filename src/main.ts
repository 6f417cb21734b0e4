import { shrinkHeapSoon } from './gc.js';
import { createServer } from 'node:net';
import { ConfigError, loadConfig } from './config.js';
import { isUniqueViolation } from './db/errors.js';
import { openDatabase } from './db/open.js';
import { DEMO_LINK_SLUG } from './domain/demo/demo.js';
import { startDemo } from './flows/demo-activity.js';
import { createPayment } from './domain/payments/create-payment.js';
import { checkoutUrl } from './domain/payments/fields.js';
import type { Deps } from './domain/deps.js';
import { createLogger } from './logger.js';
import { startRuntime, type Role } from './runtime.js';
import { removeServiceFile, writeServiceFile } from './service-file.js';

function parseRole(argv: string[]): Role {
  const i = argv.indexOf('--role');
  const role = i >= 0 ? argv[i + 1] : 'all';
  if (role === 'all' || role === 'api' || role === 'worker') return role;
  throw new ConfigError(`--role must be all, api or worker (got ${role})`);
}

/** First start of the embedded default: seed the demo and show its keys (they are shown only once). */
async function announceDemo(deps: Deps, baseUrl: string) {
  if ((await deps.prisma.merchant.count({ where: { demo: true } })) > 0) {
    console.log('Demo sandbox already seeded. Re-issue its keys with: npm run -s cli -- demo');
    console.log(`  demo payment link page: ${baseUrl}/l/${DEMO_LINK_SLUG}`);
    return;
  }
  try {
    const demo = await startDemo(deps);
    const demoPayment = await createPayment(
      deps,
      { kind: 'project', projectId: demo.projectId, merchantId: demo.merchantId, sandbox: true, keyId: 'demo-seed' },
      { amount: 250_000, callbackUrl: 'https://example.com/demo-return', orderId: 'demo-1', description: 'Demo payment' },
    );
    const demoCheckout = checkoutUrl(baseUrl, demoPayment.token);
    console.log(
      [
        'Demo sandbox seeded (keys and password are shown once; `npm run -s cli -- demo` re-issues them):',
        `  merchant key (GraphQL management): ${demo.merchantKey}`,
        `  project API key (sandbox):         ${demo.apiKey}`,
        `  dashboard owner (${baseUrl}/dashboard/login): email ${demo.ownerEmail}   password ${demo.ownerPassword}`,
        `  project id: ${demo.projectId}   card id: ${demo.cardId}`,
        `  payment link page: ${baseUrl}/l/${demo.linkSlug}   (JSON: ${baseUrl}/v1/links/${demo.linkSlug})`,
        `  demo checkout (pending sandbox payment, expires in 15 min): ${demoCheckout}`,
      ].join('\n'),
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err; // another process seeded it at the same moment
  }
}

function isPortInUse(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';
}

function portInUse(port: number): ConfigError {
  return new ConfigError(`Port ${port} is already in use: set PORT to a free port (e.g. PORT=${port + 1} npm start).`);
}

/**
 * A port another process holds is found before the database, workers and pools start, so the
 * answer is one line naming PORT rather than the listener's and the pools' errors.
 */
async function checkPortFree(port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err) => reject(isPortInUse(err) ? portInUse(port) : err));
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve()));
  });
}

async function main() {
  // A signal during start-up waits for it to finish, then stops cleanly: the embedded cluster runs
  // detached and would outlive a process killed half-way.
  let stopRequested: string | null = null;
  let stop: ((signal: string) => void) | null = null;
  const onSignal = (signal: string) => (stop ? stop(signal) : (stopRequested ??= signal));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));

  const role = parseRole(process.argv.slice(2));
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (role !== 'worker') await checkPortFree(config.port);
  const db = await openDatabase(config, log);
  const runtime = await startRuntime({ config, databaseUrl: db.databaseUrl, directUrl: db.directUrl, secretKey: db.secretKey, role, log }).catch(async (err: unknown) => {
    await db.close().catch(() => undefined);
    if (isPortInUse(err)) throw portInUse(config.port);
    throw err;
  });

  const base = config.publicBaseUrl;
  if (runtime.http) {
    console.log(`Gateway (${role}) listening on port ${runtime.http.port}`);
    console.log(`  GraphiQL:  ${base}/graphql`);
    console.log(`  REST:      ${base}/v1   (OpenAPI at ${base}/openapi.json)`);
    console.log(`  Readiness: ${base}/readyz`);
  } else {
    console.log('Gateway worker running (jobs only)');
  }
  const postgres = db.directUrl === db.databaseUrl ? 'DATABASE_URL' : 'DATABASE_URL (sessions: DATABASE_DIRECT_URL)';
  console.log(db.embedded ? `  Postgres:  embedded on 127.0.0.1:${db.embedded.port} (data in ${config.dataDir}/pg)` : `  Postgres:  ${postgres}`);
  if (runtime.deps.reads) console.log('  Replica:   DATABASE_READ_URL (exports, stats and dashboard lists; the primary while it lags or is down)');
  if (config.webhookAllowPrivate) {
    console.log('  Webhooks:  loopback and private targets allowed over http (development; WEBHOOK_ALLOW_PRIVATE=0 refuses them)');
  }
  if (db.embedded && runtime.http) await announceDemo(runtime.deps, base);
  // The CLI beside it reads where this service listens (src/service-file.ts).
  if (db.embedded && runtime.http) await writeServiceFile(config.dataDir, { port: runtime.http.port, publicBaseUrl: base }).catch(() => undefined);
  shrinkHeapSoon();

  let exiting = false;
  const shutdown = async (signal: string) => {
    // A terminal's Ctrl-C may arrive twice (the group, then npm forwarding it): one shutdown only.
    if (exiting) return;
    exiting = true;
    console.log(`Stopping (${signal}): finishing in-flight requests and jobs…`);
    log.debug({ signal }, 'shutting down: no new work, finishing in-flight');
    const force = setTimeout(() => {
      log.error('shutdown took longer than 25 s; exiting');
      process.exit(1);
    }, 25_000);
    force.unref();
    try {
      await runtime.stop();
      await removeServiceFile(config.dataDir).catch(() => undefined);
      await db.close();
      console.log('Stopped.');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  stop = (signal) => void shutdown(signal);
  if (stopRequested) stop(stopRequested);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('Failed to start:', err);
  }
  process.exit(1);
});
