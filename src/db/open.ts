import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedServer } from './embedded.js';
import { migrate } from './migrate.js';

export type OpenDatabase = {
  /** For the process's pool (Prisma, the typed hot paths, pg-boss's queries): may be a transaction pooler. */
  databaseUrl: string;
  /** A session of its own, straight to PostgreSQL: migrations, LISTEN, pg-boss's wake-ups. */
  directUrl: string;
  secretKey: string;
  /** Set when this process uses the embedded server (started here or found running). */
  embedded: EmbeddedServer | null;
  close: () => Promise<void>;
};

/** SECRET_KEY for the embedded default: generated once into the data folder, readable by root only. */
async function localSecretKey(dataDir: string): Promise<string> {
  const file = path.resolve(dataDir, 'secret-key');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  await mkdir(path.dirname(file), { recursive: true });
  const key = randomBytes(32).toString('base64url');
  await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' }).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return (await readFile(file, 'utf8')).trim();
}

/**
 * The database this process runs on: DATABASE_URL when set (DATABASE_DIRECT_URL, default the same,
 * for sessions), else an embedded PostgreSQL under the data folder on its own port. Either way it is
 * migrated before anything else touches it, over the direct URL: the migration lock is a session's.
 */
export async function openDatabase(config: Config, log: Logger): Promise<OpenDatabase> {
  let databaseUrl: string;
  let directUrl: string;
  let embedded: EmbeddedServer | null = null;
  if (config.databaseUrl) {
    databaseUrl = config.databaseUrl;
    directUrl = config.databaseDirectUrl ?? config.databaseUrl;
  } else {
    embedded = await startEmbeddedPostgres({
      dir: path.join(config.dataDir, 'pg'),
      port: config.embeddedPgPort,
      onLog: (line) => log.trace({ postgres: line.trim() }, 'embedded postgres'),
    });
    databaseUrl = await ensureDatabase(embedded.serverUrl, 'gateway');
    directUrl = databaseUrl;
  }
  const applied = await migrate(directUrl);
  if (applied.length) log.info({ applied }, 'database migrated');
  const secretKey = config.secretKey ?? (await localSecretKey(config.dataDir));
  return { databaseUrl, directUrl, secretKey, embedded, close: async () => embedded?.stop() };
}
