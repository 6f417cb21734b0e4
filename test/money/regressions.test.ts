import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOverdueLateWindows } from '../../src/domain/payments/expiry.js';
import { creditOf, WITH_CREDIT } from '../../src/domain/merchants/merchants.js';
import { createPaymentRest, gql, gqlOk, makeMerchant, makeProject, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';
import { subscribeSse } from '../support/sse.js';

// API role only: no worker runs, so expiry lags exactly as it did in the defect reports (a burst
// of creates behind a slow queue). The sweeps are run by hand where a test needs them.
let app: TestApp;
/** Test 2's given, made first: its payment's five seconds run out while the concurrent tests run. */
let lagging: Promise<Awaited<ReturnType<typeof laggingPayment>>>;
beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  lagging = laggingPayment();
  // Awaited by test 2; a failure here is its failure, not an unhandled rejection before it.
  lagging.catch(() => undefined);
});
afterAll(() => app.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A live payment of five seconds and no late window, its fee reserved, on a phone that reads its card. */
async function laggingPayment() {
  const m = await makeMerchant(app, { credit: 10_000_000 });
  const live = await makeProject(app, { merchantKey: m.merchantKey, sandbox: false, settings: { paymentTimeLimitSeconds: 5, lateWindowSeconds: 0 } });
  const phone = await device(m.merchantKey);
  await card(m.merchantKey, { projectId: live.projectId, deviceId: phone.id, accountNumber: '1111222233' });
  const p = (await createPaymentRest(app, live.apiKey, { amount: 300_000 })).body;
  const reservedAtCreate = (await credit(m.merchantId)).reserved;
  return { m, phone, p, reservedAtCreate };
}

async function device(merchantKey: string) {
  const d = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Phone" }) { token device { id } } }`, {}, merchantKey);
  await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: d.createDevice.token });
  return { id: d.createDevice.device.id as string, token: d.createDevice.token as string };
}

async function card(merchantKey: string, input: Record<string, unknown>) {
  const c = await gqlOk(
    app.baseUrl,
    `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`,
    { input: { bankCode: 'mellat', cardNumber: '6104337812345678', holderName: 'Shop', ...input } },
    merchantKey,
  );
  return c.createCard.id as string;
}

const UPDATE_CARD = `mutation($id: ID!, $input: UpdateCardInput!) { updateCard(id: $id, input: $input) { id } }`;

function sms(token: string, account: string, amount: string) {
  return request(app.baseUrl, 'POST', '/v1/device/messages', {
    token,
    body: { sender: 'BankMellat', body: mellatDeposit({ account, amount }), receivedAt: new Date().toISOString() },
  });
}

const dbPayment = (id: string) => app.deps.prisma.payment.findUniqueOrThrow({ where: { id } });
const credit = async (merchantId: string) => creditOf(await app.deps.prisma.merchant.findUniqueOrThrow({ where: { id: merchantId }, include: WITH_CREDIT }));
const feeDebits = (paymentId: string) => app.deps.prisma.creditLedgerEntry.count({ where: { paymentId, kind: 'fee' } });

describe.concurrent('money integrity regressions (issue 9), through HTTP', () => {
  it('1. a real deposit SMS never confirms a sandbox payment whose card sits on the live project’s phone', async () => {
    const m = await makeMerchant(app, { credit: 10_000_000 });
    const live = await makeProject(app, { merchantKey: m.merchantKey, sandbox: false });
    const sandbox = await makeProject(app, { merchantKey: m.merchantKey, sandbox: true });
    const phone = await device(m.merchantKey);
    await card(m.merchantKey, { projectId: live.projectId, deviceId: phone.id, accountNumber: '1111222233' });
    await card(m.merchantKey, { projectId: sandbox.projectId, deviceId: phone.id, accountNumber: '4444555566', cardNumber: '6104337899998888' });

    const p = (await createPaymentRest(app, sandbox.apiKey, { amount: 120_000 })).body;
    const res = await sms(phone.token, '4444555566', p.amountFinal);
    expect(res.body.status).toBe('unmatched');
    const message = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(message.statusReason).toMatch(/sandbox payment, which real money never confirms/);
    expect(await dbPayment(p.id)).toMatchObject({ status: 'pending', confirmedAt: null });
    const verify = await request(app.baseUrl, 'POST', `/v1/payments/${p.id}/verify`, { token: sandbox.apiKey });
    expect(verify.body.verified).toBe(false);
    // The sandbox payment is still settled the sandbox way.
    const sim = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: sandbox.apiKey, body: { paymentId: p.id } });
    expect(sim.body.payment.status).toBe('confirmed');
  });

  it('3. holds follow their card to a new phone: the first payer’s deposit confirms the first payer’s payment, and a clash is refused with 409', async () => {
    const m = await makeMerchant(app, { credit: 10_000_000 });
    const one = await makeProject(app, { merchantKey: m.merchantKey, sandbox: false, settings: { maxCode: 1 } });
    // Two's payments end quickly, so that its clashing hold goes stale during the test.
    const two = await makeProject(app, { merchantKey: m.merchantKey, sandbox: false, settings: { maxCode: 1, paymentTimeLimitSeconds: 5, lateWindowSeconds: 0 } });
    const oldPhone = await device(m.merchantKey);
    const newPhone = await device(m.merchantKey);
    const moving = await card(m.merchantKey, { projectId: one.projectId, deviceId: oldPhone.id, accountNumber: '1111222233' });
    await card(m.merchantKey, { projectId: two.projectId, deviceId: newPhone.id, accountNumber: '7777888899', cardNumber: '6104337811112222' });

    const first = (await createPaymentRest(app, one.apiKey, { amount: 200_000 })).body;
    const second = (await createPaymentRest(app, two.apiKey, { amount: 200_000 })).body;
    expect(second.amountFinal).toBe(first.amountFinal);

    // Both amounts would then wait on one phone: refused, nothing changes.
    const refused = await gql(app.baseUrl, UPDATE_CARD, { id: moving, input: { deviceId: newPhone.id } }, m.merchantKey);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_state', details: { amounts: [first.amountFinal] } });
    expect((await app.deps.prisma.card.findUniqueOrThrow({ where: { id: moving } })).deviceId).toBe(oldPhone.id);

    // A canceled payment still holds its amount until its late window ends; once that is over, the move goes through.
    await request(app.baseUrl, 'POST', `/v1/checkout/${second.token}/cancel`);
    expect((await gql(app.baseUrl, UPDATE_CARD, { id: moving, input: { deviceId: newPhone.id } }, m.merchantKey)).errors?.[0]?.extensions.code).toBe('invalid_state');
    await sleep(Math.max(0, Date.parse(second.expiresAt) - Date.now()) + 200);
    await gqlOk(app.baseUrl, UPDATE_CARD, { id: moving, input: { deviceId: newPhone.id } }, m.merchantKey);
    const hold = await app.deps.prisma.amountHold.findUniqueOrThrow({ where: { paymentId: first.id } });
    expect(hold.scope).toBe(`device:${newPhone.id}`);

    // A new payment of the same size on the new phone cannot take the first payer's amount (maxCode 1: none left).
    await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: newPhone.token });
    const third = await createPaymentRest(app, two.apiKey, { amount: 200_000 });
    expect(third.status).toBe(503);
    expect(third.body.error.details.reasons).toContain('codes_exhausted');

    // The old phone no longer reads this card; the new one does, even once the card is deactivated.
    expect((await sms(oldPhone.token, '1111222233', first.amountFinal)).body.status).toBe('unmatched');
    await gqlOk(app.baseUrl, UPDATE_CARD, { id: moving, input: { active: false } }, m.merchantKey);
    expect((await sms(newPhone.token, '1111222233', first.amountFinal)).body.status).toBe('matched');
    expect(await dbPayment(first.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
  });

  it('4. a deposit after lateUntil confirms nothing even while the payment is still pending; inside the window it is expired, then confirmed', async () => {
    const m = await makeMerchant(app, { credit: 10_000_000 });
    const closed = await makeProject(app, { merchantKey: m.merchantKey, sandbox: false, settings: { paymentTimeLimitSeconds: 5, lateWindowSeconds: 0 } });
    const open = await makeProject(app, { merchantKey: m.merchantKey, sandbox: false, settings: { paymentTimeLimitSeconds: 5, lateWindowSeconds: 120 } });
    const phone = await device(m.merchantKey);
    await card(m.merchantKey, { projectId: closed.projectId, deviceId: phone.id, accountNumber: '1111222233' });
    await card(m.merchantKey, { projectId: open.projectId, deviceId: phone.id, accountNumber: '5555666677', cardNumber: '6104337833334444' });
    const late = (await createPaymentRest(app, closed.apiKey, { amount: 400_000 })).body;
    const inWindow = (await createPaymentRest(app, open.apiKey, { amount: 500_000 })).body;
    await sleep(Math.max(Date.parse(late.expiresAt), Date.parse(inWindow.expiresAt)) - Date.now() + 500);

    expect((await dbPayment(late.id)).status).toBe('pending'); // no worker: its expiry has not run
    const refused = await sms(phone.token, '1111222233', late.amountFinal);
    expect(refused.body.status).toBe('unmatched');
    expect(await dbPayment(late.id)).toMatchObject({ status: 'pending', confirmedAt: null, feeState: 'reserved' });
    expect(await feeDebits(late.id)).toBe(0);

    const accepted = await sms(phone.token, '5555666677', inWindow.amountFinal);
    expect(accepted.body.status).toBe('matched');
    const events = await app.deps.prisma.event.findMany({ where: { paymentId: inWindow.id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['payment.expired', 'payment.confirmed']);
    expect(await feeDebits(inWindow.id)).toBe(1);
  });

});

describe('sweeps, subscriptions and credentials (issue 9): one at a time, the sweep sees every payment', () => {
  it('2. the sweep never releases the fee of a payment still pending; a late sweep expires it first, and a later deposit confirms nothing', async () => {
    const { m, phone, p, reservedAtCreate } = await lagging;
    expect(reservedAtCreate).toBe((await dbPayment(p.id)).feeAmount);

    // Past its deadline (no worker: still pending), then the sweep, late.
    await sleep(Math.max(0, Date.parse(p.expiresAt) - Date.now() + 500));
    expect(await dbPayment(p.id)).toMatchObject({ status: 'pending', feeState: 'reserved' });
    await endOverdueLateWindows(app.deps);
    const swept = await dbPayment(p.id);
    expect(swept).toMatchObject({ status: 'expired', feeState: 'released' });
    const events = await app.deps.prisma.event.findMany({ where: { paymentId: p.id } });
    expect(events.map((e) => e.type)).toEqual(['payment.expired']);

    const res = await sms(phone.token, '1111222233', p.amountFinal);
    expect(res.body.status).toBe('unmatched');
    expect(await dbPayment(p.id)).toMatchObject({ status: 'expired', feeState: 'released', confirmedAt: null });
    expect(await feeDebits(p.id)).toBe(0);
    expect((await credit(m.merchantId)).reserved).toBe(0n);
  });

  it('5. revoking a key or deactivating its project ends the subscriptions it opened with an unauthorized error, within a second', async () => {
    const m = await makeMerchant(app, { credit: 10_000_000 });
    const shop = await makeProject(app, { merchantKey: m.merchantKey, sandbox: true });
    const keyData = await gqlOk(app.baseUrl, `mutation($p: ID!) { createApiKey(projectId: $p) { key apiKey { id } } }`, { p: shop.projectId }, m.merchantKey);
    const second = { key: keyData.createApiKey.key as string, id: keyData.createApiKey.apiKey.id as string };
    await card(m.merchantKey, { projectId: shop.projectId });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 100_000 })).body;

    const events = subscribeSse<{ errors?: { extensions: { code: string } }[] }>(app.baseUrl, `subscription { paymentEvents { id type } }`, {}, `Bearer ${second.key}`);
    const updates = subscribeSse<{ errors?: { extensions: { code: string } }[] }>(app.baseUrl, `subscription($id: ID!) { paymentUpdated(id: $id) { id status metadata } }`, { id: p.id }, `Bearer ${shop.apiKey}`);
    await updates.waitFor(1);
    await sleep(200);

    const revokedAt = Date.now();
    await gqlOk(app.baseUrl, `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: second.id }, m.merchantKey);
    await events.waitUntil(() => events.completed(), 'the revoked key’s stream to complete', 5_000);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
    expect(events.values.at(-1)?.errors?.[0]?.extensions.code).toBe('unauthorized');
    expect(updates.completed(), 'the other key’s stream stays open').toBe(false);

    const deactivatedAt = Date.now();
    await gqlOk(app.baseUrl, `mutation($id: ID!) { updateProject(id: $id, input: { active: false }) { id } }`, { id: shop.projectId }, m.merchantKey);
    await updates.waitUntil(() => updates.completed(), 'the deactivated project’s stream to complete', 5_000);
    expect(Date.now() - deactivatedAt).toBeLessThan(1_000);
    expect(updates.values.at(-1)?.errors?.[0]?.extensions.code).toBe('unauthorized');
    // Nothing more reaches a revoked key: a later change sends it nothing.
    const before = events.values.length;
    await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/cancel`);
    await sleep(300);
    expect(events.values.length).toBe(before);
  });

  it('6. SSE subscriptions release every listener when their clients leave', async () => {
    const m = await makeMerchant(app);
    const shop = await makeProject(app, { merchantKey: m.merchantKey, sandbox: true });
    await card(m.merchantKey, { projectId: shop.projectId });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 100_000 })).body;
    const notifier = app.deps.notifier!;
    const before = notifier.stats();

    const streams = Array.from({ length: 200 }, (_, i) =>
      i % 2
        ? subscribeSse(app.baseUrl, `subscription($t: String!) { checkoutStatus(token: $t) { status } }`, { t: p.token })
        : subscribeSse(app.baseUrl, `subscription { paymentEvents { id } }`, {}, `Bearer ${shop.apiKey}`),
    );
    await Promise.all(streams.filter((_, i) => i % 2).map((s) => s.waitFor(1)));
    await streams[0]!.waitUntil(() => notifier.stats().feeds >= before.feeds + 200, 'all 200 subscriptions to be open');
    expect(notifier.stats().listeners).toBeGreaterThanOrEqual(before.listeners + 300);

    for (const s of streams) s.stop();
    await streams[0]!.waitUntil(() => notifier.stats().feeds === before.feeds, 'every subscription to be released');
    expect(notifier.stats()).toEqual(before);

    // The same over graphql-ws: a socket that goes away takes its subscriptions with it.
    const client = createClient({ url: `${app.baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    let seen = 0;
    for (let i = 0; i < 50; i++) {
      client.subscribe({ query: `subscription($t: String!) { checkoutStatus(token: $t) { status } }`, variables: { t: p.token } }, { next: () => void seen++, error: () => undefined, complete: () => undefined });
    }
    await streams[0]!.waitUntil(() => seen >= 50 && notifier.stats().feeds === before.feeds + 50, '50 graphql-ws subscriptions to be open');
    await client.dispose();
    await streams[0]!.waitUntil(() => notifier.stats().feeds === before.feeds, 'the socket’s subscriptions to be released');
    expect(notifier.stats()).toEqual(before);
  });
});
