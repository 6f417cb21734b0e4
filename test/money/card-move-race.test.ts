import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

// Issue 17 item 6b: concurrent updateCard moves of one card between two phones answered
// internal_error. A move that read the card's device before another move committed took the card
// for already there, moved no holds, and the money guard (holds follow their card) refused the
// commit. Moves of one card now read its device under a lock, one after another.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
});
afterAll(() => app.stop());

const UPDATE_CARD = `mutation($id: ID!, $input: UpdateCardInput!) { updateCard(id: $id, input: $input) { id deviceId } }`;
const MOVES = 20;
const PENDING = 3;

async function phone(merchantKey: string): Promise<string> {
  const d = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Phone" }) { token device { id } } }`, {}, merchantKey);
  await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: d.createDevice.token });
  return d.createDevice.device.id as string;
}

/** The scopes of the card's live holds, and the scope the card is in now. */
async function holdScopes(cardId: string) {
  const card = await app.deps.prisma.card.findUniqueOrThrow({ where: { id: cardId } });
  const holds = await app.deps.prisma.amountHold.findMany({ where: { releasedAt: null, payment: { cardId } } });
  return { cardScope: card.deviceId ? `device:${card.deviceId}` : `card:${card.id}`, scopes: holds.map((h) => h.scope) };
}

describe('concurrent moves of one card between two phones', () => {
  it('each answers success or 409 invalid_state, never internal_error, and the live holds end in the card’s current scope', async () => {
    // Given a live card on phone A with pending payments, and a second phone B
    const shop = await makeShop(app, { sandbox: false, credit: 10_000_000 });
    const phoneA = shop.deviceId!;
    const phoneB = await phone(shop.merchantKey);
    for (let i = 0; i < PENDING; i++) expect((await createPaymentRest(app, shop.apiKey, { amount: 100_000 + i * 10_000 })).status).toBe(201);

    // When 20 updateCard calls move it to B and back to A at the same time
    const results = await Promise.all(
      Array.from({ length: MOVES }, (_, i) => gql(app.baseUrl, UPDATE_CARD, { id: shop.cardId, input: { deviceId: i % 2 === 0 ? phoneB : phoneA } }, shop.merchantKey)),
    );

    // Then none fails as internal_error; none is even refused, as phone B waits for no amount of A's
    const codes = results.flatMap((r) => r.errors?.map((e) => e.extensions.code) ?? []);
    expect(codes.filter((c) => c !== 'invalid_state')).toEqual([]);
    expect(results.filter((r) => !r.errors)).toHaveLength(MOVES);
    // And every live hold sits in the scope of the card's device as it is now
    const { cardScope, scopes } = await holdScopes(shop.cardId);
    expect(scopes).toHaveLength(PENDING);
    expect(scopes.every((s) => s === cardScope)).toBe(true);
  }, 60_000);

  it('keeps holds in the card’s scope when payments are created while it moves', async () => {
    // Given a live card on phone A and a second phone B
    const shop = await makeShop(app, { sandbox: false, credit: 10_000_000 });
    const phoneA = shop.deviceId!;
    const phoneB = await phone(shop.merchantKey);

    // When moves back and forth race with creates on the card
    const moves = Array.from({ length: MOVES / 2 }, (_, i) => gql(app.baseUrl, UPDATE_CARD, { id: shop.cardId, input: { deviceId: i % 2 === 0 ? phoneB : phoneA } }, shop.merchantKey));
    const creates = Array.from({ length: MOVES / 2 }, (_, i) => createPaymentRest(app, shop.apiKey, { amount: 200_000 + i * 10_000 }));
    const [moved, created] = await Promise.all([Promise.all(moves), Promise.all(creates)]);

    // Then no move and no create fails as internal_error
    expect(moved.flatMap((r) => r.errors?.map((e) => e.extensions.code) ?? []).filter((c) => c !== 'invalid_state')).toEqual([]);
    expect(created.filter((r) => r.status >= 500 && r.body?.error?.code !== 'no_card_available')).toEqual([]);
    // And every live hold, old or new, sits in the card's current scope
    const { cardScope, scopes } = await holdScopes(shop.cardId);
    expect(scopes).toHaveLength(created.filter((r) => r.status === 201).length);
    expect(scopes.every((s) => s === cardScope)).toBe(true);
  }, 60_000);
});
