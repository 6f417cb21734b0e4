import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit, parsianDeposit } from '../support/sms.js';

// Evidence before money (docs/decisions.md "Evidence before money"): a deposit that fails a check is
// held for the merchant (`needs_review` with the reason on the message and on the payment).
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const ACCOUNT = '1234567890';
const PARSIAN_CARD = '6221061234563057';

function send(deviceToken: string, sender: string, body: string, receivedAt = new Date().toISOString()) {
  return request(app.baseUrl, 'POST', '/v1/device/messages', { token: deviceToken, body: { sender, body, receivedAt } });
}
const message = (id: string) => app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id } });
const payment = (id: string) => app.deps.prisma.payment.findUniqueOrThrow({ where: { id } });

describe.concurrent('evidence checks on real deposits', () => {
  it('a deposit from a sender that is not a known sender of its bank waits for review, and the payment says why', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { accountNumber: ACCOUNT } });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 150_000 })).body;
    const forged = await send(shop.deviceToken!, '+989121234567', mellatDeposit({ account: ACCOUNT, amount: p.amountFinal }));
    expect(forged.body.status).toBe('needs_review');
    expect((await message(forged.body.id)).statusReason).toMatch(/not a known sender of mellat/);
    expect(await payment(p.id)).toMatchObject({ status: 'pending', reviewRequired: true, reviewReason: 'unknown_sender' });
    const rest = await request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey });
    expect(rest.body).toMatchObject({ reviewRequired: true, reviewReason: 'unknown_sender' });

    // The merchant confirms after checking the bank; the reviewed message becomes the confirming one.
    await gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "seen in the bank app") { status } }`, { id: p.id }, shop.apiKey);
    expect(await payment(p.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'manual', confirmedByMessageId: forged.body.id });
  });

  it('known senders compare exactly (a number forgives only its country prefix), and a merchant may vouch for one more sender on a card', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { accountNumber: ACCOUNT } });
    const a = (await createPaymentRest(app, shop.apiKey, { amount: 160_000 })).body;
    expect((await send(shop.deviceToken!, 'Bank Mellat', mellatDeposit({ account: ACCOUNT, amount: a.amountFinal }))).body.status).toBe('matched');

    await gqlOk(app.baseUrl, `mutation($id: ID!) { updateCard(id: $id, input: { smsSender: "+98700700" }) { smsSender } }`, { id: shop.cardId }, shop.merchantKey);
    const b = (await createPaymentRest(app, shop.apiKey, { amount: 170_000 })).body;
    expect((await send(shop.deviceToken!, '98700700', mellatDeposit({ account: ACCOUNT, amount: b.amountFinal }))).body.status).toBe('matched');
  });

  it('a vouched sender is stored as the bank writes it: a typed number loses its spaces and Persian digits, a look-alike is refused', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { accountNumber: ACCOUNT } });
    const UPDATE = `mutation($id: ID!, $s: String) { updateCard(id: $id, input: { smsSender: $s }) { smsSender } }`;
    const typed = await gqlOk(app.baseUrl, UPDATE, { id: shop.cardId, s: ' +۹۸ ۷۰۰-۷۰۰ ' }, shop.merchantKey);
    expect(typed.updateCard.smsSender).toBe('+98700700');
    for (const lookAlike of ['Bank\u200DMellat', 'Bank\uFEFFMellat', 'ＢａｎｋＭｅｌｌａｔ', 'Bank\u00A0Mellat']) {
      const refused = await gql(app.baseUrl, UPDATE, { id: shop.cardId, s: lookAlike }, shop.merchantKey);
      expect(refused.errors?.[0]?.extensions.code, lookAlike).toBe('invalid_request');
      expect(JSON.stringify(refused.errors?.[0]?.extensions.details)).toContain('smsSender');
    }
    // The refused updates changed nothing: the typed number still vouches, written as phones report it.
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 175_000 })).body;
    expect((await send(shop.deviceToken!, '0098700700', mellatDeposit({ account: ACCOUNT, amount: p.amountFinal }))).body.status).toBe('matched');
  });

  it('a balance that does not follow from the account’s previous balance waits for review', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { accountNumber: ACCOUNT } });
    const first = (await createPaymentRest(app, shop.apiKey, { amount: 180_000 })).body;
    const second = (await createPaymentRest(app, shop.apiKey, { amount: 190_000 })).body;
    const third = (await createPaymentRest(app, shop.apiKey, { amount: 210_000 })).body;
    const opening = 5_000_000n;
    const afterFirst = opening + BigInt(first.amountFinal);
    expect((await send(shop.deviceToken!, 'BankMellat', mellatDeposit({ account: ACCOUNT, amount: first.amountFinal, balance: afterFirst }))).body.status).toBe('matched');
    const afterSecond = afterFirst + BigInt(second.amountFinal);
    expect((await send(shop.deviceToken!, 'BankMellat', mellatDeposit({ account: ACCOUNT, amount: second.amountFinal, balance: afterSecond }))).body.status).toBe('matched');

    // A forged SMS copies the format but cannot know the balance.
    const forged = await send(shop.deviceToken!, 'BankMellat', mellatDeposit({ account: ACCOUNT, amount: third.amountFinal, balance: 99_000_000 }));
    expect(forged.body.status).toBe('needs_review');
    expect((await message(forged.body.id)).statusReason).toMatch(/does not follow from the card's previous balance/);
    expect(await payment(third.id)).toMatchObject({ status: 'pending', reviewReason: 'balance_mismatch' });
  });

  it('two phones, a re-send or a backfill of one deposit (same bank reference, account and amount) are one deposit', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { cardNumber: PARSIAN_CARD, bankCode: 'parsian' } });
    const other = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Second phone" }) { token } }`, {}, shop.merchantKey);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 220_000 })).body;
    const body = parsianDeposit({ cardLast4: '3057', amount: p.amountFinal, reference: '770011', balance: 9_000_000 });

    // The phone that does not hold the card forwards it first: it finds no card, and is not "the" deposit.
    expect((await send(other.createDevice.token, 'Parsian', body)).body.status).toBe('unmatched');
    const original = await send(shop.deviceToken!, 'Parsian', body);
    expect(original.body.status).toBe('matched');
    // A re-send (another receivedAt) and a backfill copy are duplicates of the one that matched.
    const resend = await send(shop.deviceToken!, 'Parsian', body, new Date(Date.now() + 60_000).toISOString());
    const late = await send(other.createDevice.token, 'Parsian', body, new Date(Date.now() + 120_000).toISOString());
    for (const copy of [resend, late]) {
      expect(copy.body.status).toBe('duplicate');
      expect((await message(copy.body.id)).duplicateOfId).toBe(original.body.id);
    }
    expect(await payment(p.id)).toMatchObject({ status: 'confirmed', confirmedByMessageId: original.body.id });
  });

  it('copies arriving at once confirm the payment exactly once', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { cardNumber: PARSIAN_CARD, bankCode: 'parsian' } });
    const other = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Second phone" }) { token } }`, {}, shop.merchantKey);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 225_000 })).body;
    const body = parsianDeposit({ cardLast4: '3057', amount: p.amountFinal, reference: '770012', balance: 9_500_000 });
    const copies = await Promise.all([
      send(shop.deviceToken!, 'Parsian', body),
      send(other.createDevice.token, 'Parsian', body),
      send(shop.deviceToken!, 'Parsian', body, new Date(Date.now() + 60_000).toISOString()),
    ]);
    const matched = copies.filter((c) => c.body.status === 'matched');
    expect(matched).toHaveLength(1);
    // The second phone's copy is unmatched when it came first, a duplicate otherwise.
    for (const c of copies) expect(['matched', 'duplicate', 'unmatched']).toContain(c.body.status);
    for (const copy of copies.filter((c) => c.body.status === 'duplicate')) expect((await message(copy.body.id)).duplicateOfId).toBe(matched[0]!.body.id);
    expect(await payment(p.id)).toMatchObject({ status: 'confirmed', confirmedByMessageId: matched[0]!.body.id });
  });

  it('a deposit only the generic reader understands is never auto-confirmed', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000 });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 230_000 })).body;
    const amount = BigInt(p.amountFinal).toLocaleString('en-US');
    const res = await send(shop.deviceToken!, '+989121234567', `بانک حکمت ایرانیان\nواریز:${amount}\nمانده:9,000,000`);
    expect(res.body.status).toBe('needs_review');
    expect(await payment(p.id)).toMatchObject({ status: 'pending', reviewReason: 'unrecognized_format' });
  });
});
