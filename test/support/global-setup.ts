import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { jobDefinitions } from '../../jobs/index.js';
import { ensureDatabase, freePort, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { buildTestBundles } from './bundles.js';
import { hasPgBouncer, PGBOUNCER, startPgBouncer, type PgBouncer } from './pgbouncer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
    templateDb: string;
    /** With TEST_POOLER=pgbouncer: the server's URL through PgBouncer in transaction mode; else ''. */
    pgPoolerUrl: string;
  }
}

/** Server connections per test database behind the pooler: a little below a process's own pool. */
const POOLER_POOL_SIZE = 8;

/**
 * One real PostgreSQL for the run: DATABASE_URL's server when set, else an embedded one in a temp
 * folder. A template database is migrated once (schema + pg-boss); each test file clones it.
 * TEST_POOLER=pgbouncer (`npm run test:pooler`) also starts Debian's PgBouncer in transaction mode
 * in front of it: services the harness starts then get DATABASE_URL through the pooler and
 * DATABASE_DIRECT_URL straight to the server (test/support/harness.ts). The service and the CLI are
 * bundled once for the tests that start them as processes (test/support/bundles.ts).
 */
export default async function setup(project: TestProject) {
  const pooler = process.env.TEST_POOLER ?? '';
  if (pooler !== '' && pooler !== 'pgbouncer') throw new Error(`TEST_POOLER must be unset or "pgbouncer" (got "${pooler}")`);
  if (pooler && !hasPgBouncer()) throw new Error(`TEST_POOLER=pgbouncer needs ${PGBOUNCER} (apt-get install -y pgbouncer)`);
  const bundles = await buildTestBundles();
  let serverUrl: string;
  let stopServer = async () => undefined as void;
  let tempDir: string | undefined;
  if (process.env.DATABASE_URL) {
    serverUrl = process.env.DATABASE_URL;
  } else {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-test-'));
    const server = await startEmbeddedPostgres({ dir: path.join(tempDir, 'pg'), port: await freePort(), fast: true });
    serverUrl = server.serverUrl;
    stopServer = server.stop;
  }
  const templateDb = `gw_template_${process.pid}`;
  let bouncer: PgBouncer | null = null;
  try {
    const templateUrl = await ensureDatabase(serverUrl, templateDb);
    await migrate(templateUrl);
    const boss = new PgBoss({ connectionString: templateUrl, supervise: false, schedule: false });
    await boss.start();
    for (const def of jobDefinitions) await boss.createQueue(def.name, { ...def.options, notify: true });
    await boss.stop({ graceful: false, close: true });
    bouncer = pooler ? await startPgBouncer({ serverUrl, poolSize: POOLER_POOL_SIZE }) : null;
  } catch (err) {
    // No teardown runs after a failed setup: the servers it started must not outlive it.
    await stopServer().catch(() => undefined);
    await bundles.remove();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
    throw err;
  }

  project.provide('pgServerUrl', serverUrl);
  project.provide('templateDb', templateDb);
  project.provide('pgPoolerUrl', bouncer ? bouncer.url(serverUrl) : '');
  project.provide('bundleDir', bundles.dir);
  project.onTestsRerun(() => bundles.rebuild());

  return async () => {
    await bouncer?.stop();
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    const dbs = await client.query<{ datname: string }>(
      `select datname from pg_database where datname = $1 or datname like $2`,
      [templateDb, `${templateDb}_f_%`],
    );
    for (const { datname } of dbs.rows) {
      await client.query(`drop database if exists ${pg.escapeIdentifier(datname)} with (force)`).catch(() => undefined);
    }
    await client.end();
    await stopServer();
    await bundles.remove();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };
}
