import { cp, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ensureDatabase } from '../../src/db/embedded.js';
import { DEFINITIONS, MIGRATIONS_DIR, migrate, readMigrations } from '../../src/db/migrate.js';

async function emptyDatabase(): Promise<string> {
  return ensureDatabase(inject('pgServerUrl'), `${inject('templateDb')}_f_empty_${Math.random().toString(36).slice(2, 10)}`);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const codeStep = async (url: string) => (await query<{ step: number }>(url, 'select code_step() as step'))[0]!.step;
const STEP_EDITED_BY_HAND = `create or replace function code_step() returns integer language sql immutable as $$ select 20 $$`;

async function appliedRows(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query('select migration_name, checksum, finished_at from "_prisma_migrations" order by migration_name');
    return res.rows;
  } finally {
    await client.end();
  }
}

describe('migration runner', () => {
  it('applies every migration once, in Prisma’s bookkeeping format, and nothing on a second run', async () => {
    const url = await emptyDatabase();
    const onDisk = await readMigrations();
    expect(await migrate(url)).toEqual(onDisk.map((m) => m.name));
    expect(await migrate(url)).toEqual([]);
    const rows = await appliedRows(url);
    expect(rows.map((r) => r.migration_name)).toEqual(onDisk.map((m) => m.name));
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum) && r.finished_at !== null)).toBe(true);
  });

  it('migrates once when several processes start together (advisory lock)', async () => {
    const url = await emptyDatabase();
    const results = await Promise.all([migrate(url), migrate(url), migrate(url)]);
    const applied = results.flat();
    expect(applied).toHaveLength((await readMigrations()).length);
    expect(await appliedRows(url)).toHaveLength(applied.length);
  });

  it('refuses to run when an applied migration was edited afterwards', async () => {
    const url = await emptyDatabase();
    await migrate(url);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const [first] = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory());
    await writeFile(path.join(dir, first!.name, 'migration.sql'), '-- edited\nselect 1;');
    await expect(migrate(url, dir)).rejects.toThrow(/changed after it was applied/);
  });

  it('rolls a failing migration back whole and records nothing for it', async () => {
    const url = await emptyDatabase();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const bad = path.join(dir, '29991231000000_broken');
    await (await import('node:fs/promises')).mkdir(bad);
    await writeFile(path.join(bad, 'migration.sql'), 'create table half_done (id int); select * from no_such_table;');
    await expect(migrate(url, dir)).rejects.toThrow(/29991231000000_broken failed/);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const t = await client.query(`select to_regclass('public.half_done') as t`);
    await client.end();
    expect(t.rows[0].t).toBeNull();
    expect((await appliedRows(url)).map((r) => r.migration_name)).not.toContain('29991231000000_broken');
  });

  it('applies the definitions (src/domain/*/sql) after the migrations, again on every start', async () => {
    const url = await emptyDatabase();
    await migrate(url);
    await query(url, STEP_EDITED_BY_HAND);
    expect(await migrate(url)).toEqual([]);
    expect(await codeStep(url)).toBe(10);
  });

  it('leaves the definitions alone when the database has a migration this code does not know (an older process)', async () => {
    const url = await emptyDatabase();
    await migrate(url);
    await query(url, `insert into "_prisma_migrations" (id, checksum, migration_name, finished_at) values (gen_random_uuid(), repeat('0', 64), '29991231000000_newer', now())`);
    await query(url, STEP_EDITED_BY_HAND);
    await migrate(url);
    expect(await codeStep(url)).toBe(20);
  });

  it('an upgraded database loses the functions of the release before the expiry sweep (create_payment with a job payload, insert_expiry_job)', async () => {
    const url = await emptyDatabase();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    const names = (await readMigrations()).map((m) => m.name);
    const upTo = names.indexOf('20261126100000_expiry_sweep');
    expect(upTo).toBeGreaterThan(0);
    for (const name of names.slice(0, upTo + 1)) await cp(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
    const functions = async () =>
      (await query<{ f: string }>(url, `select oid::regprocedure::text as f from pg_proc where proname in ('create_payment', 'insert_expiry_job') order by 1`)).map((r) => r.f);
    // That release's definitions: today's, less the files of functions a later migration creates
    // (with CREATE FUNCTION, from before trigger functions moved to their definition files).
    const later = [
      'src/domain/credit/sql/credit_stripes.sql',
      'src/domain/payments/sql/idempotency_keys_previous_release.sql',
      'src/domain/audit/sql/via_previous_release.sql',
    ];
    await migrate(url, dir, DEFINITIONS.filter((file) => !later.includes(file)));
    // That release's definition (src/domain/payments/sql/create_payment.sql before the sweep), its body
    // left out: the signature is what the drop finds.
    await query(
      url,
      `create function create_payment(payment_id uuid, project_id uuid, link_id uuid, amount_requested bigint, currency text, callback_url text,
         callback_host text, order_id text, description text, payer_phone text, metadata json, token text, online_ms integer, rand bigint[],
         job_payload text) returns payments language sql as $$ select null::payments $$`,
    );
    const before = await functions();
    expect(before.filter((f) => f.startsWith('create_payment('))).toHaveLength(2);
    expect(before).toContain('insert_expiry_job(text)');
    await migrate(url);
    const after = await functions();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(/^create_payment\(uuid,uuid,uuid,bigint,text,text,text,text,text,text,json,text,integer,bigint\[\]\)$/);
  });
});
