import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../prisma/migrations');

// Any constant shared by every process that migrates this database.
const LOCK_KEY = 727_310_001;

type Migration = { name: string; sql: string; checksum: string };

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

// Prisma's own bookkeeping table, so `prisma migrate status/deploy` accept a database migrated here.
const CREATE_BOOKKEEPING = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

type Applied = { migration_name: string; checksum: string };

/**
 * Applies every migration not yet applied, each in its own transaction, under an advisory lock so
 * that processes starting together migrate once. Returns the names it applied.
 */
export async function migrate(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(CREATE_BOOKKEEPING);
    const done = await client.query<Applied>(
      'select migration_name, checksum from "_prisma_migrations" where finished_at is not null and rolled_back_at is null',
    );
    const byName = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of migrations) {
      const previous = byName.get(m.name);
      if (previous !== undefined) {
        if (previous !== m.checksum) {
          throw new Error(`Migration ${m.name} was changed after it was applied (checksum differs); add a new migration instead.`);
        }
        continue;
      }
      await client.query('begin');
      try {
        await client.query(m.sql);
        await client.query(
          `insert into "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           values ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`);
      }
      applied.push(m.name);
    }
  } finally {
    await client.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
  return applied;
}

/** Names of migrations on disk that the database has not applied (for /readyz). */
export async function pendingMigrations(query: (sql: string) => Promise<Applied[]>, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const rows = await query(
    'select migration_name, checksum from "_prisma_migrations" where finished_at is not null and rolled_back_at is null',
  ).catch(() => [] as Applied[]);
  const done = new Set(rows.map((r) => r.migration_name));
  return migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
}
