import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';

// Issue 34 item 2 and the opening balance (docs/decisions.md "Opening balance and the chain's
// order"; docs/security.md "The chain follows the bank's order, not arrival"), over HTTP: the
// balance chain follows the bank's order within one bank minute, may start from the balance the
// merchant read in the bank's app, and the card shows its current reference.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const ACCOUNT = '1234567890';
const MINUTE = 60_000;

function send(deviceToken: string, body: string, receivedAt = new Date().toISOString()) {
  return request(app.baseUrl, 'POST', '/v1/device/messages', { token: deviceToken, body: { sender: 'BankMellat', body, receivedAt } });
}
const payment = (id: string) => app.deps.prisma.payment.findUniqueOrThrow({ where: { id } });
/** The start of the current minute: Mellat's bank times carry minutes only. */
const thisMinute = () => Math.floor(Date.now() / MINUTE) * MINUTE;

const CHAIN = `query($id: ID!) { node(id: $id) { ... on Card { lastKnownBalance lastKnownBalanceAt } } }`;
async function chainOf(shop: { cardId: string; merchantKey: string }) {
  return (await gqlOk(app.baseUrl, CHAIN, { id: shop.cardId }, shop.merchantKey)).node as { lastKnownBalance: string | null; lastKnownBalanceAt: string | null };
}

async function liveShop(card: Record<string, unknown> = {}) {
  return makeShop(app, { sandbox: false, credit: 1_000_000, card: { accountNumber: ACCOUNT, ...card } });
}

describe.concurrent('the balance chain follows the bank’s order within one bank minute', () => {
  /**
   * A card whose chain has a reference two minutes ago (a deposit no payment waits for: trusted,
   * unmatched), three payments, and the bank's truth: a then b in the last bank minute, c now.
   */
  async function swappedMinute(base: number) {
    const shop = await liveShop();
    const payments = [];
    for (const amount of [base, base + 1_000, base + 2_000]) payments.push((await createPaymentRest(app, shop.apiKey, { amount })).body);
    const now = thisMinute();
    const reference = 8_000_000n;
    const first = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: 55_000, balance: reference, at: new Date(now - 2 * MINUTE) }));
    expect(first.body.status).toBe('unmatched');
    const [pa, pb, pc] = payments;
    const afterA = reference + BigInt(pa.amountFinal);
    const afterB = afterA + BigInt(pb.amountFinal);
    const afterC = afterB + BigInt(pc.amountFinal);
    const minute = new Date(now - MINUTE);
    return {
      shop,
      pa,
      pb,
      pc,
      afterB,
      depositA: mellatDeposit({ account: ACCOUNT, amount: pa.amountFinal, balance: afterA, at: minute }),
      depositB: mellatDeposit({ account: ACCOUNT, amount: pb.amountFinal, balance: afterB, at: minute }),
      depositC: mellatDeposit({ account: ACCOUNT, amount: pc.amountFinal, balance: afterC, at: new Date(now) }),
      minute,
    };
  }

  it('two deposits of one bank minute posted swapped both confirm, and the next genuine deposit follows the later balance', async () => {
    const s = await swappedMinute(311_000);
    // b arrives before a: nothing explains its balance yet, so it waits; a's arrival explains it.
    expect((await send(s.shop.deviceToken!, s.depositB)).body.status).toBe('needs_review');
    expect((await send(s.shop.deviceToken!, s.depositA)).body.status).toBe('matched');
    expect(await payment(s.pb.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms', reviewRequired: false });
    expect(await payment(s.pa.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
    // The card's reference is b's balance (the bank's order), not a's (the arrival order).
    expect(await chainOf(s.shop)).toEqual({ lastKnownBalance: s.afterB.toString(), lastKnownBalanceAt: s.minute.toISOString() });

    const next = await send(s.shop.deviceToken!, s.depositC);
    expect(next.body.status).toBe('matched');
    expect(await payment(s.pc.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
  });

  it('the same two deposits posted at once: both confirm, whichever is processed first, and the next follows', async () => {
    const s = await swappedMinute(321_000);
    const both = await Promise.all([send(s.shop.deviceToken!, s.depositB), send(s.shop.deviceToken!, s.depositA)]);
    for (const r of both) expect(['matched', 'needs_review']).toContain(r.body.status);
    expect(await payment(s.pa.id)).toMatchObject({ status: 'confirmed' });
    expect(await payment(s.pb.id)).toMatchObject({ status: 'confirmed' });
    expect((await send(s.shop.deviceToken!, s.depositC)).body.status).toBe('matched');
  });

  it('in order, the same: the chain does not depend on arrival', async () => {
    const s = await swappedMinute(331_000);
    expect((await send(s.shop.deviceToken!, s.depositA)).body.status).toBe('matched');
    expect((await send(s.shop.deviceToken!, s.depositB)).body.status).toBe('matched');
    expect((await send(s.shop.deviceToken!, s.depositC)).body.status).toBe('matched');
  });
});

describe.concurrent('opening balance', () => {
  it('given on createCard (Persian digits), a first deposit whose balance is not opening + amount is held balance_mismatch; a right one matches', async () => {
    const shop = await liveShop({ openingBalance: '۵۰۰۰۰۰۰' });
    expect((await chainOf(shop)).lastKnownBalance).toBe('5000000');
    const forged = (await createPaymentRest(app, shop.apiKey, { amount: 341_000 })).body;
    const genuine = (await createPaymentRest(app, shop.apiKey, { amount: 342_000 })).body;

    // A first SMS with a made-up balance no longer becomes the reference by arriving first.
    const wrong = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: forged.amountFinal, balance: 9_999_000 }));
    expect(wrong.body.status).toBe('needs_review');
    expect(await payment(forged.id)).toMatchObject({ status: 'pending', reviewRequired: true, reviewReason: 'balance_mismatch' });
    const held = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: wrong.body.id } });
    expect(held).toMatchObject({ trusted: false, reviewReason: 'balance_mismatch' });
    expect(held.statusReason).toMatch(/opening balance 5000000/);
    // No balance at all is not opening + amount either.
    const bare = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: forged.amountFinal }), new Date(Date.now() + 1000).toISOString());
    expect(bare.body.status).toBe('needs_review');

    const right = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: genuine.amountFinal, balance: 5_000_000n + BigInt(genuine.amountFinal) }));
    expect(right.body.status).toBe('matched');
    expect((await chainOf(shop)).lastKnownBalance).toBe((5_000_000n + BigInt(genuine.amountFinal)).toString());
  });

  it('without it, the first trusted message is the reference (trust on first use), and the card shows no balance until then', async () => {
    const shop = await liveShop();
    expect(await chainOf(shop)).toEqual({ lastKnownBalance: null, lastKnownBalanceAt: null });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 343_000 })).body;
    const at = new Date(thisMinute());
    expect((await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: p.amountFinal, balance: 4_321_000, at }))).body.status).toBe('matched');
    expect(await chainOf(shop)).toEqual({ lastKnownBalance: '4321000', lastKnownBalanceAt: at.toISOString() });
  });

  it('updateCard openingBalance re-anchors a card that has a chain, and the audit log records it', async () => {
    const shop = await liveShop();
    const first = (await createPaymentRest(app, shop.apiKey, { amount: 344_000 })).body;
    const oldChain = 6_000_000n + BigInt(first.amountFinal);
    expect((await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: first.amountFinal, balance: oldChain }))).body.status).toBe('matched');

    // Messages were lost; the merchant reads the balance in the bank's app.
    const updated = await gqlOk(
      app.baseUrl,
      `mutation($id: ID!) { updateCard(id: $id, input: { openingBalance: 7500000 }) { lastKnownBalance lastKnownBalanceAt } }`,
      { id: shop.cardId },
      shop.merchantKey,
    );
    expect(updated.updateCard.lastKnownBalance).toBe('7500000');
    expect(new Date(updated.updateCard.lastKnownBalanceAt).getTime()).toBe(thisMinute());

    // After the anchor's minute, the old chain explains nothing and the new one does.
    const nextMinute = new Date(thisMinute() + MINUTE);
    const stale = (await createPaymentRest(app, shop.apiKey, { amount: 345_000 })).body;
    const res = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: stale.amountFinal, balance: oldChain + BigInt(stale.amountFinal), at: nextMinute }));
    expect(res.body.status).toBe('needs_review');
    expect(await payment(stale.id)).toMatchObject({ status: 'pending', reviewReason: 'balance_mismatch' });
    const fresh = (await createPaymentRest(app, shop.apiKey, { amount: 346_000 })).body;
    const ok = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: fresh.amountFinal, balance: 7_500_000n + BigInt(fresh.amountFinal), at: nextMinute }));
    expect(ok.body.status).toBe('matched');

    const events = await gqlOk(app.baseUrl, `query($s: ID!) { auditEvents(subjectId: $s, first: 5) { edges { node { action changes } } } }`, { s: shop.cardId }, shop.merchantKey);
    const update = events.auditEvents.edges.map((e: { node: { action: string; changes: Record<string, { from: unknown; to: unknown }> } }) => e.node).find((n: { action: string }) => n.action === 'card.updated');
    expect(update.changes.openingBalance).toEqual({ from: null, to: '7500000' });
    expect(update.changes.openingBalanceAt.to).toEqual(expect.any(String));
  });

  it('a negative or non-numeric opening balance is a clear invalid_request, nothing stored', async () => {
    const shop = await liveShop();
    for (const bad of ['-5', 'ده میلیون', '1.5']) {
      const res = await gql(app.baseUrl, `mutation($id: ID!, $v: Amount) { updateCard(id: $id, input: { openingBalance: $v }) { id } }`, { id: shop.cardId, v: bad }, shop.merchantKey);
      expect(res.errors?.[0]?.extensions?.code, bad).toBe('invalid_request');
    }
    expect(await chainOf(shop)).toEqual({ lastKnownBalance: null, lastKnownBalanceAt: null });
  });
});
