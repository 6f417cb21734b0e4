import { ConfigError, loadConfig } from './config.js';
import { isUniqueViolation } from './db/errors.js';
import { openDatabase } from './db/open.js';
import { ensureDemo } from './domain/demo/demo.js';
import { createPayment } from './domain/payments/create-payment.js';
import { checkoutUrl } from './domain/payments/record.js';
import type { Deps } from './domain/deps.js';
import { createLogger } from './logger.js';
import { startRuntime, type Role } from './runtime.js';

function parseRole(argv: string[]): Role {
  const i = argv.indexOf('--role');
  const role = i >= 0 ? argv[i + 1] : 'all';
  if (role === 'all' || role === 'api' || role === 'worker') return role;
  throw new ConfigError(`--role must be all, api or worker (got ${role})`);
}

/** First start of the embedded default: seed the demo and show its keys (they are shown only once). */
async function announceDemo(deps: Deps, baseUrl: string) {
  if ((await deps.prisma.merchant.count({ where: { demo: true } })) > 0) {
    console.log('Demo sandbox already seeded. Re-issue its keys with: npm run cli -- demo');
    return;
  }
  try {
    const demo = await ensureDemo(deps);
    const demoPayment = await createPayment(
      deps,
      { kind: 'project', projectId: demo.projectId, merchantId: demo.merchantId, sandbox: true, keyId: 'demo-seed' },
      { amount: 250_000, callbackUrl: 'https://example.com/demo-return', orderId: 'demo-1', description: 'Demo payment' },
    );
    const demoCheckout = demoPayment.replayed ? null : checkoutUrl(baseUrl, demoPayment.payment.token);
    console.log(
      [
        'Demo sandbox seeded (keys are shown once; `npm run cli -- demo` re-issues them):',
        `  merchant key (GraphQL management): ${demo.merchantKey}`,
        `  project API key (sandbox):         ${demo.apiKey}`,
        `  project id: ${demo.projectId}   card id: ${demo.cardId}`,
        `  payment link: ${baseUrl}/v1/links/${demo.linkSlug}`,
        `  demo checkout (pending sandbox payment, expires in 15 min): ${demoCheckout}`,
      ].join('\n'),
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err; // another process seeded it at the same moment
  }
}

async function main() {
  const role = parseRole(process.argv.slice(2));
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const db = await openDatabase(config, log);
  const runtime = await startRuntime({ config, databaseUrl: db.databaseUrl, secretKey: db.secretKey, role, log });

  const base = config.publicBaseUrl;
  if (runtime.http) {
    console.log(`Gateway (${role}) listening on port ${runtime.http.port}`);
    console.log(`  GraphiQL:  ${base}/graphql`);
    console.log(`  REST:      ${base}/v1   (OpenAPI at ${base}/openapi.json once published)`);
    console.log(`  Readiness: ${base}/readyz`);
  } else {
    console.log('Gateway worker running (jobs only)');
  }
  console.log(db.embedded ? `  Postgres:  embedded on 127.0.0.1:${db.embedded.port} (data in ${config.dataDir}/pg)` : '  Postgres:  DATABASE_URL');
  if (db.embedded && runtime.http) await announceDemo(runtime.deps, base);

  let exiting = false;
  const shutdown = async (signal: string) => {
    if (exiting) return;
    exiting = true;
    log.info({ signal }, 'shutting down: no new work, finishing in-flight');
    const force = setTimeout(() => {
      log.error('shutdown took longer than 25 s; exiting');
      process.exit(1);
    }, 25_000);
    force.unref();
    try {
      await runtime.stop();
      await db.close();
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('Failed to start:', err);
  }
  process.exit(1);
});
