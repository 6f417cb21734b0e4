import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let mine: Awaited<ReturnType<typeof makeShop>>;
let foreignPaymentId: string;
let foreignMessageId: string;

beforeAll(async () => {
  app = await startTestApp();
  mine = await makeShop(app, { sandbox: false, credit: 1_000_000 });
  const other = await makeShop(app, { sandbox: false, credit: 1_000_000 });
  for (const amount of [20_000, 21_000, 22_000]) await createPaymentRest(app, mine.apiKey, { amount });
  foreignPaymentId = (await createPaymentRest(app, other.apiKey, { amount: 23_000 })).body.id;
  // Own rows on both sides of the foreign one, so that either direction would find some.
  await createPaymentRest(app, mine.apiKey, { amount: 24_000 });
  for (const body of ['one', 'two']) {
    await request(app.baseUrl, 'POST', '/v1/device/messages', { token: mine.deviceToken, body: { sender: 'x', body, receivedAt: new Date().toISOString() } });
  }
  const foreign = await request(app.baseUrl, 'POST', '/v1/device/messages', { token: other.deviceToken, body: { sender: 'x', body: 'three', receivedAt: new Date().toISOString() } });
  foreignMessageId = foreign.body.id;
  for (const body of ['four']) {
    await request(app.baseUrl, 'POST', '/v1/device/messages', { token: mine.deviceToken, body: { sender: 'x', body, receivedAt: new Date().toISOString() } });
  }
});
afterAll(() => app.stop());

/** The cursor Pothos would give for this id, forged from one it gave for another. */
async function forgeCursor(query: string, field: string, id: string): Promise<string> {
  const data = await gqlOk(app.baseUrl, query, {}, mine.apiKey);
  const real: string = data[field].edges[0].cursor;
  const decoded = Buffer.from(real, 'base64').toString('utf8');
  const ownId: string = data[field].edges[0].node.id;
  expect(decoded).toContain(ownId);
  return Buffer.from(decoded.replace(ownId, id), 'utf8').toString('base64');
}

describe('a cursor naming a row the caller cannot see returns no rows (no existence oracle)', () => {
  it.each(['after', 'before'])('payments(%s: <another project’s payment>) answers like an unknown id', async (direction) => {
    const cursor = await forgeCursor('{ payments(first: 1) { edges { cursor node { id } } } }', 'payments', foreignPaymentId);
    const unknown = await forgeCursor('{ payments(first: 1) { edges { cursor node { id } } } }', 'payments', '00000000-0000-4000-8000-000000000000');
    const size = direction === 'after' ? 'first' : 'last';
    const q = `query($c: String) { payments(${size}: 10, ${direction}: $c) { edges { node { id } } } }`;
    const foreign = await gqlOk(app.baseUrl, q, { c: cursor }, mine.apiKey);
    const none = await gqlOk(app.baseUrl, q, { c: unknown }, mine.apiKey);
    expect(foreign.payments.edges).toEqual([]);
    expect(none.payments.edges).toEqual([]);
  });

  it('still pages with the caller’s own cursors', async () => {
    const first = await gqlOk(app.baseUrl, '{ payments(first: 1) { edges { cursor } } }', {}, mine.apiKey);
    const next = await gqlOk(app.baseUrl, 'query($c: String) { payments(first: 10, after: $c) { edges { node { id } } } }', { c: first.payments.edges[0].cursor }, mine.apiKey);
    expect(next.payments.edges).toHaveLength(3);
  });

  it('bankMessages(after: <another merchant’s message>) returns no rows', async () => {
    const cursor = await forgeCursor('{ bankMessages(first: 1) { edges { cursor node { id } } } }', 'bankMessages', foreignMessageId);
    const res = await gqlOk(app.baseUrl, 'query($c: String) { bankMessages(first: 10, after: $c) { edges { node { id } } } }', { c: cursor }, mine.apiKey);
    expect(res.bankMessages.edges).toEqual([]);
  });

  it('viewer.ledger(after: <another merchant’s entry>) returns no rows', async () => {
    const q = '{ viewer { merchant { id ledger(first: 1) { edges { cursor node { id } } } } } }';
    const me = (await gqlOk(app.baseUrl, q, {}, mine.merchantKey)).viewer.merchant.id as string;
    const foreign = await app.deps.prisma.creditLedgerEntry.findFirstOrThrow({ where: { merchantId: { not: me } }, orderBy: { createdAt: 'desc' } });
    const data = await gqlOk(app.baseUrl, q, {}, mine.merchantKey);
    const edge = data.viewer.merchant.ledger.edges[0];
    const cursor = Buffer.from(Buffer.from(edge.cursor, 'base64').toString('utf8').replace(edge.node.id, foreign.id), 'utf8').toString('base64');
    const res = await gqlOk(app.baseUrl, 'query($c: String) { viewer { merchant { ledger(first: 10, after: $c) { edges { node { id } } } } } }', { c: cursor }, mine.merchantKey);
    expect(res.viewer.merchant.ledger.edges).toEqual([]);
  });

  it('a malformed cursor is refused or empty, never internal_error', async () => {
    for (const c of ['not-base64!', Buffer.from('GPC:S:zz').toString('base64'), Buffer.from('GPC:S:a\u0000').toString('base64')]) {
      const res = await request(app.baseUrl, 'POST', '/graphql', { token: mine.apiKey, body: { query: 'query($c: String) { payments(first: 5, after: $c) { edges { node { id } } } }', variables: { c } } });
      expect(res.status).toBe(200);
      if (res.body.errors) expect(res.body.errors[0].extensions.code).toBe('invalid_request');
      else expect(res.body.data.payments.edges).toEqual([]);
    }
  });
});
