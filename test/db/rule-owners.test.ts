import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceScope, matchScope } from '../../src/domain/cards/selection.js';
import { createTestDatabase } from '../support/harness.js';

// The SQL functions that own a money rule (src/domain/<concern>/sql/), checked at their edges.
let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

async function one<T>(sql: string, values: unknown[]): Promise<T> {
  const { rows } = await client.query<{ v: T }>(sql, values);
  return rows[0]!.v;
}

describe('payment_fee: clamp(floor(amountFinal × bps / 10,000), min, max)', () => {
  // [amountFinal, bps, min, max, fee]
  const cases: [number, number, number, number, number][] = [
    [10_010, 100, 1_000, 50_000, 1_000],
    [99_999, 100, 1_000, 50_000, 1_000],
    [100_000, 100, 1_000, 50_000, 1_000],
    [100_199, 100, 1_000, 50_000, 1_001],
    [3_000_990, 100, 1_000, 50_000, 30_009],
    [4_999_999, 100, 1_000, 50_000, 49_999],
    [5_000_000, 100, 1_000, 50_000, 50_000],
    [5_000_100, 100, 1_000, 50_000, 50_000],
    [1_000_099_990, 100, 1_000, 50_000, 50_000],
    [10_010, 0, 0, 0, 0],
    [1_000_099_990, 0, 0, 0, 0],
    [199_999, 250, 5_000, 20_000, 5_000],
    [200_000, 250, 5_000, 20_000, 5_000],
    [200_040, 250, 5_000, 20_000, 5_001],
    [799_999, 250, 5_000, 20_000, 19_999],
    [800_000, 250, 5_000, 20_000, 20_000],
    [800_040, 250, 5_000, 20_000, 20_000],
    [0, 10_000, 1, 2_000_000_000, 1],
    [1, 10_000, 1, 2_000_000_000, 1],
    [1_000_099_990, 10_000, 1, 2_000_000_000, 1_000_099_990],
    [2_000_000_000, 10_000, 1, 2_000_000_000, 2_000_000_000],
    [2_000_000_001, 10_000, 1, 2_000_000_000, 2_000_000_000],
    // min above max: below min gives min, anything else max.
    [2_432_432, 37, 9_000, 1_000, 9_000],
    [2_432_433, 37, 9_000, 1_000, 1_000],
  ];

  it.each(cases)('of %i at %i bps within %i..%i is %i', async (amount, bps, min, max, fee) => {
    expect(await one<string>('SELECT payment_fee($1, $2, $3, $4) AS v', [amount, bps, min, max])).toBe(String(fee));
  });
});

describe('match_scope: the card’s device, or the card alone', () => {
  it('given a card on a device, is the device’s scope, and matchScope says the same', async () => {
    const card = { id: randomUUID(), device_id: randomUUID() };
    const sql = await one<string>('SELECT match_scope($1::uuid, $2::uuid) AS v', [card.id, card.device_id]);
    expect(sql).toBe(`device:${card.device_id}`);
    expect(matchScope(card)).toBe(sql);
    expect(deviceScope(card.device_id)).toBe(sql);
  });

  it('given a card without a device, is the card’s own scope, and matchScope says the same', async () => {
    const card = { id: randomUUID(), device_id: null };
    const sql = await one<string>('SELECT match_scope($1::uuid, $2::uuid) AS v', [card.id, card.device_id]);
    expect(sql).toBe(`card:${card.id}`);
    expect(matchScope(card)).toBe(sql);
  });
});

describe('device_online: not revoked and seen at most online_ms ago', () => {
  // SQL expressions for the last-seen and revoked columns.
  const online = (seen: string, revoked: string) => one<boolean>(`SELECT device_online(${seen}, ${revoked}, $1) AS v`, [300_000]);

  it('is true when seen exactly online_ms ago, false a millisecond earlier', async () => {
    expect(await online(`now() - interval '300 seconds'`, 'NULL')).toBe(true);
    expect(await online(`now() - interval '300.001 seconds'`, 'NULL')).toBe(false);
  });

  it('is false, never null, for a device never seen or revoked', async () => {
    expect(await online('NULL', 'NULL')).toBe(false);
    expect(await online('now()', 'now()')).toBe(false);
  });
});

describe('code_step', () => {
  it('is 10 rials, the step the payments CHECK also states', async () => {
    expect(await one<number>('SELECT code_step() AS v', [])).toBe(10);
  });
});
