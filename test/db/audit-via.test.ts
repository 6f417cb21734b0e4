import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { ensureDatabase } from '../../src/db/embedded.js';
import { MIGRATIONS_DIR, migrate, readMigrations } from '../../src/db/migrate.js';

// Migration 20261129040000_audit_via: every audit event says which door it came through. The rows
// written before it, and the rows a previous release still writes while both run (no `via`), get
// the door their actor kind implies; the log stays append-only.

const VIA = '20261129040000_audit_via';

async function databaseBefore(migration: string): Promise<string> {
  const url = await ensureDatabase(inject('pgServerUrl'), `${inject('templateDb')}_f_via_${Math.random().toString(36).slice(2, 10)}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
  const names = (await readMigrations()).map((m) => m.name);
  expect(names).toContain(migration);
  for (const name of names.slice(0, names.indexOf(migration))) await cp(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  // No definitions: the tables of that release are all this test needs.
  await migrate(url, dir, []);
  return url;
}

const KINDS = ['user', 'merchant_key', 'project_key', 'operator', 'system'] as const;
const insertEvent = (kind: string) =>
  `INSERT INTO audit_events (actor_kind, actor_label, merchant_id, action, subject_type, subject_id)
   SELECT '${kind}', 'label', id, 'merchant.updated', 'merchant', id FROM merchants`;

describe('migration audit_via', () => {
  it('gives the events written before it, and those a previous release writes after it, the door their actor kind implies', async () => {
    // Given a database one migration before, with an event of every actor kind
    const url = await databaseBefore(VIA);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      await db.query(`INSERT INTO merchants (name) VALUES ('m')`);
      for (const kind of KINDS) await db.query(insertEvent(kind));
      // When it is migrated
      await migrate(url);
      // Then each has its door
      const rows = async () => (await db.query<{ actor_kind: string; via: string }>(`SELECT actor_kind, via FROM audit_events ORDER BY at`)).rows.map((r) => `${r.actor_kind}→${r.via}`);
      const expected = ['user→dashboard', 'merchant_key→api', 'project_key→api', 'operator→cli', 'system→system'];
      expect(await rows()).toEqual(expected);
      // And an insert without `via` (the previous release's) gets it the same way
      for (const kind of KINDS) await db.query(insertEvent(kind));
      expect(await rows()).toEqual([...expected, ...expected]);
      // And the log is still append-only, `via` is one of the doors
      await expect(db.query(`UPDATE audit_events SET via = 'api'`)).rejects.toThrow(/append-only/);
      const byFax = `INSERT INTO audit_events (actor_kind, actor_label, via, merchant_id, action, subject_type, subject_id)
        SELECT 'user', 'label', 'fax', id, 'merchant.updated', 'merchant', id FROM merchants`;
      await expect(db.query(byFax)).rejects.toThrow(/audit_events_via/);
    } finally {
      await db.end();
    }
  });
});
