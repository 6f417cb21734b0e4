import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';
import { mellatDeposit } from '../support/sms.js';

// Migration time_ordered_ids (issue 40, docs/decisions.md "Time-ordered ids for the growing tables"): the rows of the
// tables that grow with every payment get UUID version 7 ids, whoever makes them (the create's own
// id, Prisma's `uuid(7)`, the database's default for rows inserted by SQL), so each new index entry
// lands on the primary key's right edge.
let app: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  app = await startTestApp();
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

const version = (id: string) => id[14];
/** The id's first 48 bits: its Unix time in milliseconds. */
const millis = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('time-ordered ids', () => {
  it('payments, their events and deliveries, bank messages and audit events get version 7 ids of the moment they were made', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { accountNumber: '1234567890' } });
    await gqlOk(app.baseUrl, 'mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }', { p: shop.projectId, u: receiver.url }, shop.merchantKey);
    const before = Date.now();
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 612_000 })).body;
    const sms = await request(app.baseUrl, 'POST', '/v1/device/messages', {
      token: shop.deviceToken,
      body: { sender: 'BankMellat', body: mellatDeposit({ account: '1234567890', amount: payment.amountFinal }), receivedAt: new Date().toISOString() },
    });
    expect(sms.body.status).toBe('matched');
    const after = Date.now();
    const db = app.deps.prisma;
    const events = await db.event.findMany({ where: { paymentId: payment.id } });
    const deliveries = await db.webhookDelivery.findMany({ where: { paymentId: payment.id } });
    const audit = await db.auditEvent.findMany({ where: { projectId: shop.projectId } });
    expect(events.length).toBeGreaterThan(0);
    expect(deliveries.length).toBeGreaterThan(0);
    expect(audit.length).toBeGreaterThan(0);
    for (const id of [payment.id, sms.body.id, ...events.map((e) => e.id), ...deliveries.map((d) => d.id)]) {
      expect(version(id), id).toBe('7');
      expect(millis(id)).toBeGreaterThanOrEqual(before - 1);
      expect(millis(id)).toBeLessThanOrEqual(after + 1);
    }
    for (const a of audit) expect(version(a.id), a.id).toBe('7');
    // Made one after the other, they sort in that order (the index's right edge).
    expect([payment.id, events[0]!.id].sort()).toEqual([payment.id, events[0]!.id]);
  });

  it('the database default and the fallback for servers before PostgreSQL 18 both make version 7 ids of now', async () => {
    const migration = await readFile(path.resolve('src/db/sql/uuid_v7.sql'), 'utf8');
    const fallback = /\$b\$([\s\S]*?)\$b\$/.exec(migration)?.[1];
    expect(fallback).toContain('gen_random_uuid()');
    const client = new pg.Client({ connectionString: app.databaseUrl });
    await client.connect();
    try {
      const before = Date.now();
      const own = (await client.query<{ id: string }>('SELECT uuid_v7()::text AS id FROM generate_series(1, 50)')).rows.map((r) => r.id);
      // The fallback's body as its definition file gives it, as a function of this session only.
      await client.query(`CREATE FUNCTION pg_temp.uuid_v7_fallback() RETURNS uuid LANGUAGE sql VOLATILE AS $b$${fallback}$b$`);
      const built = (await client.query<{ id: string }>('SELECT pg_temp.uuid_v7_fallback()::text AS id FROM generate_series(1, 50)')).rows.map((r) => r.id);
      const after = Date.now();
      for (const id of [...own, ...built]) {
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(millis(id)).toBeGreaterThanOrEqual(before - 1);
        expect(millis(id)).toBeLessThanOrEqual(after + 1);
      }
      expect(new Set([...own, ...built]).size).toBe(100);
    } finally {
      await client.end();
    }
  });
});
