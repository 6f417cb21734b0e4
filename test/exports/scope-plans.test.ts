import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_STATS_SQL } from '../../src/domain/reports/store/payment-stats.js';
import { bankMessagesExport, paymentsExport } from '../../src/domain/exports/store/queries.js';
import { createTestDatabase } from '../support/harness.js';

// `scopeSql` (src/domain/auth/scope.ts): a statement planned with its values asks one project's
// rows by project only (the merchant owning it is checked once on `projects`) and a merchant's by
// merchant only. Asked for both, the planner paired the merchant's created_at index with the
// project's and read a busy merchant's whole month for a small project's 297 rows (20 ms against
// 1 ms on a year of data: docs/BENCHMARKS.md "Scale 1: what fixed the shortfalls").
let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
afterAll(() => client.end());

type PlanNode = { 'Relation Name'?: string; Plans?: PlanNode[] } & Record<string, unknown>;
const CONDITIONS = ['Index Cond', 'Filter', 'Recheck Cond', 'Hash Cond', 'Join Filter'];

/** Every condition the plan puts on `table`'s own rows (scan, index and recheck conditions). */
function conditionsOn(node: PlanNode, table: string): string[] {
  const own = node['Relation Name'] === table ? CONDITIONS.map((c) => node[c]).filter((c): c is string => typeof c === 'string') : [];
  return [...own, ...(node.Plans ?? []).flatMap((n) => conditionsOn(n, table))];
}

async function plan(text: string, params: unknown[]): Promise<PlanNode> {
  const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${text}`, params);
  return rows[0]!['QUERY PLAN'][0].Plan;
}

const statements = [
  { name: 'the payments export', text: paymentsExport.text, table: 'payments', params: (m: string, p: string | null) => [m, p, false, new Date(0), new Date(), null, null] },
  { name: 'the bank messages export', text: bankMessagesExport.text, table: 'bank_messages', params: (m: string, p: string | null) => [m, p, false, new Date(0), new Date(), null, null] },
  { name: 'payment stats', text: PAYMENT_STATS_SQL, table: 'payments', params: (m: string, p: string | null) => [m, p, false, new Date(Date.now() - 86_400_000), new Date(), 'DAY', null, ''] },
];

describe('one scope per statement', () => {
  for (const s of statements) {
    it(`${s.name}: one project's rows are asked for by project only, a merchant's by merchant only`, async () => {
      const merchant = randomUUID();
      const project = conditionsOn(await plan(s.text, s.params(merchant, randomUUID())), s.table).join(' ');
      expect(project).toMatch(/project_id = /);
      expect(project).not.toMatch(/merchant_id/);
      const all = conditionsOn(await plan(s.text, s.params(merchant, null)), s.table).join(' ');
      expect(all).toMatch(/merchant_id = /);
      expect(all).not.toMatch(/project_id/);
    });
  }
});
