import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';

/**
 * The bank's SMS line (docs/live-setup.md "3.3 The card"): the known lines per bank for the card
 * form, and "this is my bank's line" for a deposit held only for its unknown sender, whose text reads
 * as the card's bank: the sender becomes the card's smsSender (audited); the deposit stays held.
 */

const VOUCH = `mutation($id: ID!, $cardId: ID) { vouchSmsSender(bankMessageId: $id, cardId: $cardId) { id smsSender } }`;
const MESSAGE = `query($id: ID!) { node(id: $id) { ... on BankMessage { status reviewReason senderVouchable } } }`;
const NEW_LINE = '+989121234567';

describe('the bank’s SMS line', () => {
  let app: TestApp;
  let db: pg.Client;
  let shop: Awaited<ReturnType<typeof makeShop>>;

  /** A Mellat deposit of a new payment's exact amount from `sender`: the message row as stored. */
  async function depositFrom(sender: string) {
    const created = await createPaymentRest(app, shop.apiKey, { amount: 120_000 });
    expect(created.status).toBe(201);
    const res = await request(app.baseUrl, 'POST', '/v1/device/messages', {
      token: shop.deviceToken!,
      body: { sender, body: mellatDeposit({ account: '5678', amount: created.body.amountFinal }), receivedAt: new Date().toISOString() },
    });
    expect(res.status).toBeLessThan(300);
    const { rows } = await db.query<{ id: string; status: string; review_reason: string | null }>(
      'SELECT id, status, review_reason FROM bank_messages WHERE device_id = $1 ORDER BY created_at DESC LIMIT 1',
      [shop.deviceId],
    );
    return { message: rows[0]!, paymentId: created.body.id as string };
  }

  beforeAll(async () => {
    app = await startTestApp({ role: 'api' });
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    shop = await makeShop(app, { sandbox: false, credit: 10_000_000 });
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  it('lists every bank with its known lines (the card form offers them)', async () => {
    const data = await gqlOk(app.baseUrl, '{ banks { code name senders } }', {});
    const mellat = data.banks.find((b: { code: string }) => b.code === 'mellat');
    expect(mellat).toEqual({ code: 'mellat', name: 'بانک ملت', senders: expect.arrayContaining(['+98700701']) });
    expect(data.banks.length).toBeGreaterThan(20);
  });

  it('sets the card’s smsSender from a held deposit (audited), leaves the deposit held, and the next SMS from that line matches', async () => {
    const held = await depositFrom(NEW_LINE);
    expect(held.message).toMatchObject({ status: 'needs_review', review_reason: 'unknown_sender' });
    const before = await gqlOk(app.baseUrl, MESSAGE, { id: held.message.id }, shop.merchantKey);
    expect(before.node).toEqual({ status: 'needs_review', reviewReason: 'unknown_sender', senderVouchable: true });

    // A project key does not manage cards.
    const byProject = await gql(app.baseUrl, VOUCH, { id: held.message.id }, shop.apiKey);
    expect(byProject.errors?.[0]?.extensions.code).toBe('unauthorized');

    const vouched = await gqlOk(app.baseUrl, VOUCH, { id: held.message.id }, shop.merchantKey);
    expect(vouched.vouchSmsSender).toEqual({ id: shop.cardId, smsSender: NEW_LINE });
    const after = await gqlOk(app.baseUrl, MESSAGE, { id: held.message.id }, shop.merchantKey);
    expect(after.node.status).toBe('needs_review');
    const audit = await db.query(`SELECT action, note, changes FROM audit_events WHERE subject_id = $1 AND action = 'card.sms_sender_vouched'`, [shop.cardId]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].note).toContain(held.message.id);
    expect(JSON.stringify(audit.rows[0].changes)).toContain(NEW_LINE);

    const next = await depositFrom(NEW_LINE);
    expect(next.message.status).toBe('matched');
  });

  it('refuses a message that is not held for its sender alone, or a card that is not the message’s', async () => {
    const matched = await depositFrom('+98700701');
    expect(matched.message.status).toBe('matched');
    const refused = await gql(app.baseUrl, VOUCH, { id: matched.message.id }, shop.merchantKey);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_state', details: { reason: 'not_unknown_sender' } });
    const held = await depositFrom('+989350000000');
    const otherCard = await gql(app.baseUrl, VOUCH, { id: held.message.id, cardId: '00000000-0000-4000-8000-000000000000' }, shop.merchantKey);
    expect(otherCard.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_state', details: { reason: 'card_mismatch' } });
    const unknown = await gql(app.baseUrl, VOUCH, { id: '00000000-0000-4000-8000-000000000000' }, shop.merchantKey);
    expect(unknown.errors?.[0]?.extensions.code).toBe('not_found');
  });
});
