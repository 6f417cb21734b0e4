import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { jobDefinitions } from '../../jobs/index.js';
import { ensureDatabase, freePort, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
    templateDb: string;
  }
}

/**
 * One real PostgreSQL for the run: DATABASE_URL's server when set, else an embedded one in a temp
 * folder. A template database is migrated once (schema + pg-boss); each test file clones it.
 */
export default async function setup(project: TestProject) {
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
  const templateUrl = await ensureDatabase(serverUrl, templateDb);
  await migrate(templateUrl);
  const boss = new PgBoss({ connectionString: templateUrl, supervise: false, schedule: false });
  await boss.start();
  for (const def of jobDefinitions) await boss.createQueue(def.name, { ...def.options, notify: true });
  await boss.stop({ graceful: false, close: true });

  project.provide('pgServerUrl', serverUrl);
  project.provide('templateDb', templateDb);

  return async () => {
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
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };
}
