import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { ensureDatabase } from '../../src/db/embedded.js';
import { DEFINITIONS, MIGRATIONS_DIR, readDefinitions, readMigrations } from '../../src/db/migrate.js';
import { createTestDatabase } from '../support/harness.js';

// Every function of the public schema has one source, its definition file (src/domain/<concern>/sql/,
// listed in DEFINITIONS); migrations write schema only (docs/architecture.md "SQL that owns a rule").

/** The last migration that wrote function bodies: they are history, each now also in its definition file. */
const BODIES_IN_MIGRATIONS_UNTIL = '20261129040000_audit_via';

/** What a migration may leave as a function's body: a stub naming the definition file that replaces it. */
const STUB = /^\s*BEGIN\s+RAISE\s+EXCEPTION\s+'defined in ([^']+)'\s*;\s*END;?\s*$/i;

/** Every function of the public schema our SQL made (not an extension's), by signature. */
async function functions(client: pg.Client): Promise<Map<string, { src: string; def: string }>> {
  const { rows } = await client.query<{ sig: string; src: string; def: string }>(
    `SELECT p.oid::regprocedure::text AS sig, p.prosrc AS src, pg_get_functiondef(p.oid) AS def
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
      ORDER BY 1`,
  );
  return new Map(rows.map((r) => [r.sig, { src: r.src, def: r.def }]));
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** A new database with the migrations of `dir` applied, and no definition. */
async function migrationsOnly(dir: string): Promise<{ client: pg.Client; bodiesUntil: Map<string, { src: string }> }> {
  const url = await ensureDatabase(inject('pgServerUrl'), `${inject('templateDb')}_f_defs_${Math.random().toString(36).slice(2, 10)}`);
  const client = await connect(url);
  const migrations = await readMigrations(dir);
  expect(migrations.map((m) => m.name)).toContain(BODIES_IN_MIGRATIONS_UNTIL);
  let bodiesUntil = new Map<string, { src: string }>();
  for (const m of migrations) {
    await client.query(m.sql);
    if (m.name === BODIES_IN_MIGRATIONS_UNTIL) bodiesUntil = await functions(client);
  }
  return { client, bodiesUntil };
}

/**
 * The functions the migrations after BODIES_IN_MIGRATIONS_UNTIL created or changed whose body is
 * not a stub naming a file of `definitions`.
 */
async function bodiesWrittenByMigrations(client: pg.Client, bodiesUntil: Map<string, { src: string }>, definitions: readonly string[]): Promise<string[]> {
  const written: string[] = [];
  for (const [sig, { src }] of await functions(client)) {
    if (bodiesUntil.get(sig)?.src === src) continue;
    const stub = STUB.exec(src);
    if (!stub || !definitions.includes(stub[1]!)) written.push(sig);
  }
  return written;
}

/**
 * Drops every function the migrations left, then applies `definitions` (in one transaction, as a
 * start does): the functions that came back from nowhere but their definition files, and the ones
 * that did not.
 */
async function fromDefinitionsAlone(client: pg.Client, definitions: readonly string[]) {
  const migrated = await functions(client);
  for (const sig of migrated.keys()) await client.query(`DROP FUNCTION IF EXISTS ${sig} CASCADE`);
  await client.query('BEGIN');
  for (const sql of await readDefinitions(definitions)) await client.query(sql);
  await client.query('COMMIT');
  const defined = await functions(client);
  return { defined, withoutFile: [...migrated.keys()].filter((sig) => !defined.has(sig)) };
}

describe('every function has its definition file, and migrations write no body', () => {
  it('given the migrations alone, no migration after the history writes a function body: it leaves a stub naming the file', async () => {
    const { client, bodiesUntil } = await migrationsOnly(MIGRATIONS_DIR);
    try {
      const written = await bodiesWrittenByMigrations(client, bodiesUntil, DEFINITIONS);
      expect(written, `these functions' bodies are written by a migration after ${BODIES_IN_MIGRATIONS_UNTIL}: put each body in a definition file listed in DEFINITIONS (src/db/migrate.ts) and let the migration create a stub, BEGIN RAISE EXCEPTION 'defined in <that file>'; END`).toEqual([]);

      const { defined, withoutFile } = await fromDefinitionsAlone(client, DEFINITIONS);
      expect(withoutFile, 'functions a migration created that no definition file defines').toEqual([]);

      // What a start leaves (the migrated template every test database is cloned from) is, function
      // for function, what the definition files alone make.
      const started = await connect(await createTestDatabase());
      try {
        const live = await functions(started);
        expect([...live.keys()]).toEqual([...defined.keys()]);
        const differs = [...live].filter(([sig, { def }]) => defined.get(sig)?.def !== def).map(([sig]) => sig);
        expect(differs, 'functions whose body in a migrated database differs from their definition file').toEqual([]);
      } finally {
        await started.end();
      }
    } finally {
      await client.end();
    }
  });

  it('fails for a migration that writes a body, a stub naming no definition file, and a function without its file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    await mkdir(path.join(dir, '29991231000000_rules_in_a_migration'));
    await writeFile(
      path.join(dir, '29991231000000_rules_in_a_migration', 'migration.sql'),
      `CREATE FUNCTION rule_in_a_migration() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
       CREATE FUNCTION stub_of_nothing() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'defined in src/domain/nowhere/sql/none.sql'; END $$;
       CREATE FUNCTION stub_of_refunds() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'defined in src/domain/refunds/sql/refunds.sql'; END $$;
       CREATE OR REPLACE FUNCTION refunds_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;`,
    );
    const planted = (sigs: string[]) => sigs.filter((sig) => /^(rule_in_a_migration|stub_of_|refunds_)/.test(sig));
    const { client, bodiesUntil } = await migrationsOnly(dir);
    try {
      expect(planted(await bodiesWrittenByMigrations(client, bodiesUntil, DEFINITIONS))).toEqual(['refunds_append_only()', 'rule_in_a_migration()', 'stub_of_nothing()']);
      const { withoutFile } = await fromDefinitionsAlone(client, DEFINITIONS.filter((f) => f !== 'src/domain/refunds/sql/refunds.sql'));
      expect(planted(withoutFile)).toEqual(['refunds_append_only()', 'refunds_apply()', 'rule_in_a_migration()', 'stub_of_nothing()', 'stub_of_refunds()']);
    } finally {
      await client.end();
    }
  });
});
