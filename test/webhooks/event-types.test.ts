import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, FINAL_EVENT_TYPES } from '../../src/domain/payments/types.js';
import { DEFAULT_ENDPOINT_EVENTS, DEVICE_EVENT_TYPES, GAP_EVENT_TYPES, MESSAGE_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/event-types.js';
import { createTestDatabase } from '../support/harness.js';

// The event types live once in TypeScript (src/domain/webhooks/event-types.ts, the payment events in
// src/domain/payments/types.ts); the migrations' CHECKs and the column default state them again.
// Given a migrated database, its constraints name exactly the lists.
let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

/** The quoted text values of a constraint's, index's or default's SQL, sorted. */
const quoted = (sql: string) => [...sql.matchAll(/'([a-z_.]+)'(?:::text)?/g)].map((m) => m[1]!).sort();
const sorted = (list: readonly string[]) => [...list].sort();

async function constraint(table: string, name: string): Promise<string> {
  const { rows } = await client.query<{ def: string }>(
    `SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c WHERE c.conrelid = $1::regclass AND c.conname = $2`,
    [table, name],
  );
  expect(rows, `${table}.${name}`).toHaveLength(1);
  return rows[0]!.def;
}

describe('the database names the same event types as the code', () => {
  it('an endpoint may list exactly the webhook event types', async () => {
    expect(quoted(await constraint('webhook_endpoints', 'webhook_endpoints_events_known'))).toEqual(sorted(WEBHOOK_EVENT_TYPES));
  });

  it('a new endpoint receives exactly the default set', async () => {
    const { rows } = await client.query<{ def: string }>(
      `SELECT column_default AS def FROM information_schema.columns WHERE table_name = 'webhook_endpoints' AND column_name = 'events'`,
    );
    expect(quoted(rows[0]!.def)).toEqual(sorted(DEFAULT_ENDPOINT_EVENTS));
  });

  it('an event row is a payment event or a bank message event; a device event a device event', async () => {
    expect(quoted(await constraint('events', 'events_type_check'))).toEqual(sorted([...EVENT_TYPES, ...MESSAGE_EVENT_TYPES, ...GAP_EVENT_TYPES]));
    expect(quoted(await constraint('device_events', 'device_events_type_check'))).toEqual(sorted(DEVICE_EVENT_TYPES));
  });

  it('a payment reaches each final state once: the unique index covers exactly the final events', async () => {
    const { rows } = await client.query<{ def: string }>(`SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'events_one_per_payment_and_type'`);
    expect(quoted(rows[0]!.def)).toEqual(sorted(FINAL_EVENT_TYPES));
  });
});
