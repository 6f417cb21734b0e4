import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT } from '../paths.js';

const ROOT = PROJECT_ROOT;
export const MIGRATIONS_DIR = path.join(ROOT, 'prisma/migrations');

/**
 * Repeatable definitions: every SQL function of the public schema, each source beside its concern
 * (`src/domain/<concern>/sql/`), written with CREATE OR REPLACE only: the functions that own a rule
 * and the trigger functions (the triggers themselves are schema, in the migrations). Applied after
 * the versioned migrations on every start, in this order (a file calls only files above it), so
 * editing one is the whole change. What CREATE OR REPLACE cannot do (a new signature, a dropped
 * function) is a versioned migration, which writes no function body: a function it needs to exist
 * (for its CREATE TRIGGER) it creates as a stub naming the definition file that replaces it
 * (docs/architecture.md "SQL that owns a rule"; test/db/definitions.test.ts holds both). It never
 * calls a definition: on a new database the definitions run after every migration. A process older than the database leaves them alone (see
 * `migrate`), so a release that changes a definition and runs beside the previous one in a rolling
 * upgrade also adds a versioned migration (an empty one will do).
 */
export const DEFINITIONS = [
  'src/db/sql/uuid_v7.sql',
  'src/domain/cards/sql/match_scope.sql',
  'src/domain/cards/sql/holds_follow_card.sql',
  'src/domain/cards/sql/jalali_month.sql',
  'src/domain/reports/sql/jalali_date.sql',
  'src/domain/devices/sql/device_online.sql',
  'src/domain/credit/sql/payment_fee.sql',
  'src/domain/credit/sql/credit_stripes.sql',
  'src/domain/credit/sql/fee_debits.sql',
  'src/domain/credit/sql/ledger_append_only.sql',
  'src/domain/codes/sql/draw_code.sql',
  'src/domain/payments/sql/create_payment.sql',
  'src/domain/payments/sql/payments_guard.sql',
  'src/domain/payments/sql/idempotency_keys_previous_release.sql',
  'src/domain/refunds/sql/refunds.sql',
  'src/domain/bank-messages/sql/refund_guard.sql',
  'src/domain/audit/sql/append_only.sql',
  'src/domain/audit/sql/via_previous_release.sql',
  'src/domain/auth/sql/credential_changes.sql',
] as const;

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

/** All or nothing: a failure rolls back whole and names what failed. */
async function inTransaction(client: pg.Client, what: string, run: () => Promise<void>): Promise<void> {
  await client.query('begin');
  try {
    await run();
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw new Error(`${what} failed: ${(err as Error).message}`);
  }
}

export async function readDefinitions(files: readonly string[] = DEFINITIONS): Promise<string[]> {
  return Promise.all(files.map((file) => readFile(path.join(ROOT, file), 'utf8')));
}

/**
 * Applies every migration not yet applied, each in its own transaction, then the definitions in one
 * transaction, under an advisory lock so that processes starting together migrate once. A process
 * older than the database (it lacks a migration the database has applied, as in a rolling upgrade)
 * leaves the definitions as the newer code wrote them. Returns the names of the migrations it applied.
 * `databaseUrl` must give a session of its own (DATABASE_DIRECT_URL, never a transaction pooler):
 * the lock is a session advisory lock, taken and released on this one connection. `dir` and
 * `definitionFiles` are other than the defaults only in tests (an older release's migrations and
 * definitions).
 */
export async function migrate(databaseUrl: string, dir = MIGRATIONS_DIR, definitionFiles: readonly string[] = DEFINITIONS): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const definitions = await readDefinitions(definitionFiles);
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
      await inTransaction(client, `Migration ${m.name}`, async () => {
        await client.query(m.sql);
        await client.query(
          `insert into "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           values ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
      });
      applied.push(m.name);
    }
    const onDisk = new Set(migrations.map((m) => m.name));
    if ([...byName.keys()].every((name) => onDisk.has(name))) {
      await inTransaction(client, 'Definitions', async () => {
        for (const sql of definitions) await client.query(sql);
      });
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
