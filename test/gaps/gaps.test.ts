import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';
import { addSignedInUser, errorCode, gqlAs, USERS_ENV } from '../users/support.js';

// Balance gaps (docs/exceptions.md "Lost messages: balance gaps"), over HTTP: a deposit SMS that
// never came shows as a gap between the card's trusted balance and the next genuine message; the
// gap is recorded once, closes by itself when the SMS comes late, and the merchant's resolution
// confirms exactly one payment.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: USERS_ENV });
});
afterAll(() => app.stop());

const ACCOUNT = '1234567890';
const MINUTE = 60_000;
const REFERENCE = 8_000_000n;
const thisMinute = () => Math.floor(Date.now() / MINUTE) * MINUTE;

const send = (token: string, body: string, receivedAt = new Date().toISOString()) =>
  request(app.baseUrl, 'POST', '/v1/device/messages', { token, body: { sender: 'BankMellat', body, receivedAt } });
const payment = (id: string) => app.deps.prisma.payment.findUniqueOrThrow({ where: { id } });
const gapsOf = (cardId: string) => app.deps.prisma.balanceGap.findMany({ where: { cardId }, orderBy: { createdAt: 'asc' } });

const GAP_FIELDS = `id amount status fromBalance toMessage { id } candidates { reason payment { id } } resolvedPayment { id } explainedByMessage { id }`;
const RESOLVE = `mutation($id: ID!, $paymentId: ID, $note: String, $key: String) { resolveBalanceGap(id: $id, paymentId: $paymentId, note: $note, idempotencyKey: $key) { ${GAP_FIELDS} } }`;

/**
 * A live card with a trusted reference three minutes ago, two payments (the lost one and the next),
 * and the bank's truth: the lost deposit, then the next one, both in this bank minute (a deposit
 * matches payments created before its bank time + 2 min).
 */
async function lostDeposit(base: number) {
  const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { accountNumber: ACCOUNT } });
  const lost = (await createPaymentRest(app, shop.apiKey, { amount: base })).body;
  const next = (await createPaymentRest(app, shop.apiKey, { amount: base + 1_000 })).body;
  const now = thisMinute();
  const first = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: 55_000, balance: REFERENCE, at: new Date(now - 3 * MINUTE) }));
  expect(first.body.status).toBe('unmatched');
  const afterLost = REFERENCE + BigInt(lost.amountFinal);
  const afterNext = afterLost + BigInt(next.amountFinal);
  return {
    shop,
    lost,
    next,
    lostSms: mellatDeposit({ account: ACCOUNT, amount: lost.amountFinal, balance: afterLost, at: new Date(now) }),
    nextSms: mellatDeposit({ account: ACCOUNT, amount: next.amountFinal, balance: afterNext, at: new Date(now) }),
    afterNext,
  };
}

/**
 * lostDeposit, then the next deposit (held: a gap before it) and a third payment's deposit that
 * follows it (held behind it), both answered needs_review.
 */
async function heldBehindHeld(base: number) {
  const s = await lostDeposit(base);
  const third = (await createPaymentRest(app, s.shop.apiKey, { amount: base + 500 })).body;
  const thirdSms = mellatDeposit({ account: ACCOUNT, amount: third.amountFinal, balance: s.afterNext + BigInt(third.amountFinal), at: new Date(thisMinute()) });
  const held = await send(s.shop.deviceToken!, s.nextSms);
  const behind = await send(s.shop.deviceToken!, thirdSms);
  expect([held.body.status, behind.body.status]).toEqual(['needs_review', 'needs_review']);
  return { s, third, held, behind };
}

describe.concurrent('a lost deposit SMS shows as a balance gap', () => {
  it('is recorded once, with the lost payment as its candidate, however often the next message is sent', async () => {
    const s = await lostDeposit(411_000);
    const held = await send(s.shop.deviceToken!, s.nextSms);
    expect(held.body.status).toBe('needs_review');
    const resent = await send(s.shop.deviceToken!, s.nextSms, new Date(Date.now() + 1_000).toISOString());
    expect(resent.body.status).toBe('needs_review');

    const gaps = await gapsOf(s.shop.cardId);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ status: 'open', amount: BigInt(s.lost.amountFinal), toMessageId: held.body.id, fromBalance: REFERENCE });
    const read = await gqlOk(app.baseUrl, `query($p: ID) { balanceGaps(projectId: $p, status: open) { edges { node { ${GAP_FIELDS} } } } }`, { p: s.shop.projectId }, s.shop.merchantKey);
    const node = read.balanceGaps.edges[0].node;
    expect(node.candidates).toEqual([{ reason: 'missing_sms', payment: { id: s.lost.id } }]);
    // Both copies name the gap; nothing was confirmed by the gap itself.
    for (const id of [held.body.id, resent.body.id]) {
      const m = await gqlOk(app.baseUrl, `query($id: ID!) { node(id: $id) { ... on BankMessage { balanceGap { id } } } }`, { id }, s.shop.merchantKey);
      expect(m.node.balanceGap).toEqual({ id: gaps[0]!.id });
    }
    expect(await payment(s.lost.id)).toMatchObject({ status: 'pending' });
    const card = await gqlOk(app.baseUrl, `query($id: ID!) { node(id: $id) { ... on Card { openGaps { id } } } }`, { id: s.shop.cardId }, s.shop.merchantKey);
    expect(card.node.openGaps).toEqual([{ id: gaps[0]!.id }]);
    const events = await app.deps.prisma.event.findMany({ where: { type: 'card.balance_gap', projectId: s.shop.projectId } });
    expect(events).toHaveLength(1);
  });

  it('the lost SMS arriving late closes the gap by itself and both payments confirm normally', async () => {
    const s = await lostDeposit(421_000);
    expect((await send(s.shop.deviceToken!, s.nextSms)).body.status).toBe('needs_review');
    const late = await send(s.shop.deviceToken!, s.lostSms);
    expect(late.body.status).toBe('matched');
    expect(await payment(s.lost.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
    expect(await payment(s.next.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
    const [gap] = await gapsOf(s.shop.cardId);
    expect(gap).toMatchObject({ status: 'resolved', resolvedPaymentId: null, explainedByMessageId: late.body.id });
  });

  it('messages after the loss arriving in reverse order make one gap, ending at the earlier of them', async () => {
    const s = await lostDeposit(431_000);
    const third = (await createPaymentRest(app, s.shop.apiKey, { amount: 431_500 })).body;
    const thirdSms = mellatDeposit({ account: ACCOUNT, amount: third.amountFinal, balance: s.afterNext + BigInt(third.amountFinal), at: new Date(thisMinute()) });
    expect((await send(s.shop.deviceToken!, thirdSms)).body.status).toBe('needs_review');
    const next = await send(s.shop.deviceToken!, s.nextSms);
    expect(next.body.status).toBe('needs_review');
    const gaps = await gapsOf(s.shop.cardId);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ status: 'open', toMessageId: next.body.id, amount: BigInt(s.lost.amountFinal) });
    // The late lost SMS explains it and every payment confirms by its own SMS.
    expect((await send(s.shop.deviceToken!, s.lostSms)).body.status).toBe('matched');
    for (const p of [s.lost, s.next, third]) expect(await payment(p.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
  });
});

describe.concurrent('resolving a gap', () => {
  it('confirms exactly one payment under concurrent resolves, and the held message matches its own payment', async () => {
    const s = await lostDeposit(441_000);
    expect((await send(s.shop.deviceToken!, s.nextSms)).body.status).toBe('needs_review');
    const [gap] = await gapsOf(s.shop.cardId);
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => gql(app.baseUrl, RESOLVE, { id: gap!.id, paymentId: s.lost.id, note: 'seen in the bank', key: i % 2 ? `k-${i}` : null }, s.shop.merchantKey)),
    );
    for (const a of answers) expect(a.errors, JSON.stringify(a.errors)).toBeUndefined();
    for (const a of answers) expect(a.data.resolveBalanceGap).toMatchObject({ status: 'resolved', resolvedPayment: { id: s.lost.id } });
    expect(await payment(s.lost.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'manual', confirmedByMessageId: null });
    expect(await app.deps.prisma.event.count({ where: { paymentId: s.lost.id, type: 'payment.confirmed' } })).toBe(1);
    expect(await payment(s.next.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
    const audit = await app.deps.prisma.auditEvent.findMany({ where: { subjectId: gap!.id } });
    expect(audit.map((a) => a.action)).toEqual(['balance_gap.resolved']);

    // The lost SMS arriving after all is that payment's message: no second payment is confirmed.
    const other = (await createPaymentRest(app, s.shop.apiKey, { amount: 441_000 })).body;
    const late = await send(s.shop.deviceToken!, s.lostSms);
    expect(late.body.status).toBe('matched');
    expect(await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: late.body.id } })).toMatchObject({ paymentId: s.lost.id });
    expect(await payment(other.id)).toMatchObject({ status: 'pending' });
  });

  it('two decisions racing on one gap, each naming another candidate: one payment is confirmed, the other decision is refused', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { accountNumber: ACCOUNT } });
    // Two payments asking the same amount (different codes): a transfer without the code fits both.
    const a = (await createPaymentRest(app, shop.apiKey, { amount: 491_000 })).body;
    const b = (await createPaymentRest(app, shop.apiKey, { amount: 491_000 })).body;
    const other = (await createPaymentRest(app, shop.apiKey, { amount: 492_000 })).body;
    const now = thisMinute();
    expect((await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: 55_000, balance: REFERENCE, at: new Date(now - 3 * MINUTE) }))).body.status).toBe('unmatched');
    const afterLost = REFERENCE + 491_000n;
    expect((await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: other.amountFinal, balance: afterLost + BigInt(other.amountFinal), at: new Date(now) }))).body.status).toBe('needs_review');
    const [gap] = await gapsOf(shop.cardId);
    expect(gap).toMatchObject({ amount: 491_000n });
    const answers = await Promise.all([a, b].map((p) => gql(app.baseUrl, RESOLVE, { id: gap!.id, paymentId: p.id, note: 'bank shows it' }, shop.merchantKey)));
    const codes = answers.map((x) => x.errors?.[0]?.extensions.code ?? x.data.resolveBalanceGap.status).sort();
    expect(codes).toEqual(['invalid_state', 'resolved']);
    const confirmed = await app.deps.prisma.payment.count({ where: { id: { in: [a.id, b.id] }, status: 'confirmed' } });
    expect(confirmed).toBe(1);
    expect(await app.deps.prisma.event.count({ where: { paymentId: { in: [a.id, b.id] }, type: 'payment.confirmed' } })).toBe(1);
  });

  it('dismissing needs a note; a payment that is not a candidate is refused', async () => {
    const s = await lostDeposit(451_000);
    expect((await send(s.shop.deviceToken!, s.nextSms)).body.status).toBe('needs_review');
    const [gap] = await gapsOf(s.shop.cardId);
    const bare = await gql(app.baseUrl, RESOLVE, { id: gap!.id }, s.shop.merchantKey);
    expect(bare.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request' });
    expect(JSON.stringify(bare.errors?.[0]?.extensions.details)).toContain('note');
    const wrong = await gql(app.baseUrl, RESOLVE, { id: gap!.id, paymentId: s.next.id }, s.shop.merchantKey);
    expect(wrong.errors?.[0]?.extensions.code).toMatch(/amount_mismatch|invalid_state/);
    const dismissed = await gqlOk(app.baseUrl, RESOLVE, { id: gap!.id, note: 'a personal transfer' }, s.shop.merchantKey);
    expect(dismissed.resolveBalanceGap).toMatchObject({ status: 'dismissed', resolvedPayment: null });
    expect(await payment(s.lost.id)).toMatchObject({ status: 'pending' });
    // The held message is the chain's reference now, but a dismissal confirms nothing: its own
    // payment waits for the merchant's attach.
    const held = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: gap!.toMessageId } });
    expect(held).toMatchObject({ trusted: true, status: 'needs_review' });
    expect(await payment(s.next.id)).toMatchObject({ status: 'pending' });
  });

  it('a canceled candidate can take the gap’s money (the gap is its evidence)', async () => {
    const s = await lostDeposit(471_000);
    expect((await request(app.baseUrl, 'POST', `/v1/checkout/${s.lost.token}/cancel`)).status).toBe(200);
    expect((await send(s.shop.deviceToken!, s.nextSms)).body.status).toBe('needs_review');
    const [gap] = await gapsOf(s.shop.cardId);
    const resolved = await gqlOk(app.baseUrl, RESOLVE, { id: gap!.id, paymentId: s.lost.id, note: 'paid, then canceled the page' }, s.shop.merchantKey);
    expect(resolved.resolveBalanceGap).toMatchObject({ status: 'resolved', resolvedPayment: { id: s.lost.id } });
    expect(await payment(s.lost.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'manual', amountReceived: BigInt(s.lost.amountFinal) });
  });

  it('dismissing the held message itself (not genuine) dismisses its gap and trusts nothing', async () => {
    const s = await lostDeposit(481_000);
    const held = await send(s.shop.deviceToken!, s.nextSms);
    await gqlOk(app.baseUrl, `mutation($id: ID!) { dismissBankMessage(id: $id, note: "not from our bank") { status } }`, { id: held.body.id }, s.shop.merchantKey);
    const [gap] = await gapsOf(s.shop.cardId);
    expect(gap).toMatchObject({ status: 'dismissed', resolvedPaymentId: null });
    expect(await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: held.body.id } })).toMatchObject({ trusted: false, status: 'dismissed' });
    expect(await payment(s.lost.id)).toMatchObject({ status: 'pending' });
    // The gap's own history says who ended it and why, beside the message's event.
    const events = await app.deps.prisma.auditEvent.findMany({ where: { subjectId: { in: [gap!.id, held.body.id] } }, orderBy: { at: 'asc' } });
    expect(events.map((e) => [e.subjectId, e.action])).toEqual([
      [held.body.id, 'bank_message.dismissed'],
      [gap!.id, 'balance_gap.dismissed'],
    ]);
    expect(events[1]).toMatchObject({ actorKind: 'merchant_key', projectId: s.shop.projectId, note: `Its message ${held.body.id} was dismissed by the merchant.` });
  });

  it('refunding the held message (money that was no payment’s) dismisses its gap at once, audited on the gap', async () => {
    const s = await lostDeposit(491_000);
    const held = await send(s.shop.deviceToken!, s.nextSms);
    expect(held.body.status).toBe('needs_review');
    const refunded = await gqlOk(
      app.baseUrl,
      `mutation($id: ID!) { refundBankMessage(messageId: $id, input: { destinationCard: "6037991234567893", note: "sent back to the payer" }) { amount } }`,
      { id: held.body.id },
      s.shop.merchantKey,
    );
    expect(BigInt(refunded.refundBankMessage.amount)).toBe(BigInt(s.next.amountFinal));
    expect(await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: held.body.id } })).toMatchObject({ status: 'refunded' });
    const [gap] = await gapsOf(s.shop.cardId);
    expect(gap).toMatchObject({ status: 'dismissed', resolvedPaymentId: null });
    const events = await app.deps.prisma.auditEvent.findMany({ where: { subjectId: gap!.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'balance_gap.dismissed', note: `Its message ${held.body.id} was refunded by the merchant.` });
    expect(await payment(s.lost.id)).toMatchObject({ status: 'pending' });
  });

  // Money simulation seeds 285500731 and 2014959057: a held message the merchant attaches becomes
  // the chain's reference, and the message waiting behind it must follow it then (trusted, matched
  // as if in order), not stay held behind a gap that no longer holds it.
  it('attaching the held message trusts the messages waiting behind it, and the next one matches its own payment', async () => {
    const { s, third, held, behind } = await heldBehindHeld(501_000);
    expect(await gapsOf(s.shop.cardId)).toHaveLength(1);
    const ATTACH = 'mutation($m: ID!, $p: ID!) { attachBankMessage(messageId: $m, paymentId: $p) { id status } }';
    await gqlOk(app.baseUrl, ATTACH, { m: held.body.id, p: s.next.id }, s.shop.merchantKey);
    expect(await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: behind.body.id } })).toMatchObject({ trusted: true, status: 'matched', paymentId: third.id });
    expect(await payment(third.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
    // The lost payment's money is still unexplained: its gap stays open for the merchant.
    const [gap] = await gapsOf(s.shop.cardId);
    expect(gap).toMatchObject({ status: 'open', toMessageId: held.body.id, amount: BigInt(s.lost.amountFinal) });
    expect(await payment(s.lost.id)).toMatchObject({ status: 'pending' });
  });

  it('confirming by hand the payment a held message waits for trusts the messages behind it too', async () => {
    const { s, third, held, behind } = await heldBehindHeld(511_000);
    const CONFIRM = 'mutation($id: ID!) { confirmPaymentManually(id: $id, note: "seen in the bank") { id status } }';
    await gqlOk(app.baseUrl, CONFIRM, { id: s.next.id }, s.shop.merchantKey);
    expect(await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: held.body.id } })).toMatchObject({ trusted: true, status: 'matched' });
    expect(await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: behind.body.id } })).toMatchObject({ trusted: true, status: 'matched', paymentId: third.id });
    expect(await payment(third.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
  });

  it('a viewer is refused; another merchant’s gap is not found', async () => {
    const s = await lostDeposit(461_000);
    expect((await send(s.shop.deviceToken!, s.nextSms)).body.status).toBe('needs_review');
    const [gap] = await gapsOf(s.shop.cardId);
    const merchantId = (await gqlOk(app.baseUrl, `{ viewer { merchant { id } } }`, {}, s.shop.merchantKey)).viewer.merchant.id;
    const viewer = await addSignedInUser(app, merchantId, 'viewer');
    expect(errorCode(await gqlAs(app, viewer.cookie, RESOLVE, { id: gap!.id, paymentId: s.lost.id }))).toBe('forbidden');
    const stranger = await makeShop(app, { sandbox: false });
    const foreign = await gql(app.baseUrl, RESOLVE, { id: gap!.id, paymentId: s.lost.id }, stranger.merchantKey);
    expect(foreign.errors?.[0]?.extensions.code).toBe('not_found');
    const list = await gqlOk(app.baseUrl, `{ balanceGaps { edges { node { id } } } }`, {}, stranger.merchantKey);
    expect(list.balanceGaps.edges).toEqual([]);
    expect(await payment(s.lost.id)).toMatchObject({ status: 'pending' });
  });
});

// Alone (not beside the concurrent tests above): PostgreSQL's deadlock count is the database's.
describe('a decision racing the SMS that explains its message', () => {
  // A decision on a held message takes its card's chain lock before the message's row, as an SMS of
  // the card does (chain, then the held messages it trusts): the late SMS that explains a message
  // racing the merchant's dismissal of it waits instead of deadlocking (PostgreSQL counts deadlocks).
  it('dismissing a held message while the SMS that explains it arrives: no deadlock, one outcome each time', async () => {
    const deadlocks = async () =>
      Number((await app.deps.prisma.$queryRaw<{ n: bigint }[]>`SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()`)[0]!.n);
    const before = await deadlocks();
    const rounds = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const s = await lostDeposit(521_000 + i * 2_000);
        const held = await send(s.shop.deviceToken!, s.nextSms);
        expect(held.body.status).toBe('needs_review');
        const [dismissed, late] = await Promise.all([
          gql(app.baseUrl, `mutation($id: ID!) { dismissBankMessage(id: $id, note: "checked") { status } }`, { id: held.body.id }, s.shop.merchantKey),
          send(s.shop.deviceToken!, s.lostSms),
        ]);
        // 202 when the dismissal held the chain longer than the device path waits: processed by its job then.
        expect([200, 202]).toContain(late.status);
        await expect.poll(async () => (await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: late.body.id } })).status, { timeout: 15_000 }).not.toBe('received');
        const message = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: held.body.id } });
        // Either the dismissal came first (the message stays dismissed) or the explanation did (it matched its payment, and the dismissal was refused).
        if (dismissed.errors) expect([dismissed.errors[0]?.extensions?.code, message.status]).toEqual(['invalid_state', 'matched']);
        else expect(message.status).toBe('dismissed');
        return message.status;
      }),
    );
    expect(rounds).toHaveLength(8);
    expect(await deadlocks()).toBe(before);
  });
});
