import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_FACTS_SQL } from '../../src/domain/devices/store/health.js';
import { createTestDatabase } from '../support/harness.js';

// The device-health sweep's statement (src/domain/devices/store/health.ts) finds a phone's last
// message from a known bank line as the first entry of an index whose predicate is its own. Before
// migration device_bank_index_trusted the index also held unknown senders' messages and the plan
// filtered them out one heap read at a time: a phone whose recent messages came from an unknown
// sender (a forger's flood) cost the sweep all of them on every tick (387 ms a call on the year of
// data, docs/BENCHMARKS.md).
type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Filter?: string; Plans?: PlanNode[] };
const nodesOn = (node: PlanNode, table: string): PlanNode[] => [...(node['Relation Name'] === table ? [node] : []), ...(node.Plans ?? []).flatMap((n) => nodesOn(n, table))];

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
afterAll(() => client.end());

describe('device health: the last bank message', () => {
  it('is read from an index that holds only known senders’ parsed, real messages: no row is read to be thrown away', async () => {
    // A test database's tables are nearly empty, so the planner would read them whole; with that
    // ruled out it shows which index answers the statement, and whether rows are filtered after it.
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    await client.query('SET LOCAL enable_bitmapscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${HEALTH_FACTS_SQL}`, [randomUUID(), 100, 120_000, 3_600_000, 600_000]);
    await client.query('ROLLBACK');
    const scans = nodesOn(rows[0]!['QUERY PLAN'][0].Plan, 'bank_messages');
    expect(scans).toHaveLength(1);
    expect(scans[0]!['Node Type']).toMatch(/^Index (Only )?Scan$/);
    expect(scans[0]!['Index Name']).toBe('bank_messages_device_trusted_idx');
    expect(scans[0]!.Filter).toBeUndefined();
  });
});
