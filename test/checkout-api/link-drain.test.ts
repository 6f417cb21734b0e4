import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, testEnv, type HttpResult, type TestApp } from '../support/harness.js';
import { spawnTs, waitFor, type Spawned } from '../support/process.js';

// Issue 17 item 5: one anonymous payer drained a payment link from one IP with a burst spread over
// two API processes. docs/security.md "Payment links": one client address holds at most 3 pending
// payments of one link at a time; the next create from it → 429 rate_limited with Retry-After.

const PER_CLIENT = 3;
// Below the per-minute link limit (10 per address), so every refusal here is the pending cap.
const BURST = 6;
const PAYMENT_SECONDS = 900;

let setup: TestApp;
const apis: Spawned[] = [];
let bases: string[] = [];

beforeAll(async () => {
  setup = await startTestApp({ role: 'api' });
  // Two API processes behind a proxy on loopback: X-Forwarded-For names the payer.
  for (let i = 0; i < 2; i++) apis.push(spawnTs('src/main.ts', ['--role', 'api'], testEnv(setup.databaseUrl, { TRUST_PROXY: 'loopback' })));
  await waitFor(() => apis.every((p) => /listening on port \d+/.test(p.stdout())), 60_000, 'two API processes');
  bases = apis.map((p) => `http://127.0.0.1:${/listening on port (\d+)/.exec(p.stdout())![1]}`);
}, 90_000);

afterAll(async () => {
  for (const p of apis) p.child.kill('SIGKILL');
  await setup?.stop();
});

async function liveShopWithLink(slug: string) {
  // The card's daily count cap is what the drain used to fill: two payers' worth plus the shop's own.
  const shop = await makeShop(setup, { sandbox: false, credit: 10_000_000, settings: { paymentTimeLimitSeconds: PAYMENT_SECONDS }, card: { dailyCountCap: 2 * PER_CLIENT + 1 } });
  await gqlOk(setup.baseUrl, `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { slug } }`, { input: { projectId: shop.projectId, slug, title: 'Tea', amount: 50_000 } }, shop.merchantKey);
  return shop;
}

/** A link payment from `address`, through API process `i`. */
const payFromLink = (i: number, slug: string, address: string) =>
  request(bases[i % bases.length]!, 'POST', `/v1/links/${slug}/payments`, { body: {}, headers: { 'x-forwarded-for': address } });

/** `count` concurrent link payments from one address, alternating between the two processes. */
const burst = (slug: string, address: string, count = BURST) => Promise.all(Array.from({ length: count }, (_, i) => payFromLink(i, slug, address)));

function expectCapRefusal(res: HttpResult) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('rate_limited');
  expect(res.body.error.message).toMatch(/pending payments of this link/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(PAYMENT_SECONDS);
}

describe('a payment link against one payer draining it', () => {
  it('lets one address hold 3 pending payments of a link across processes, each other address its own 3, and one more once one ends', async () => {
    // Given a live link whose card takes 7 payments a day
    const shop = await liveShopWithLink('drain-tea');

    // When one address sends a concurrent burst through two API processes
    const first = await burst('drain-tea', '203.0.113.7');

    // Then exactly 3 are created and the rest are refused with Retry-After
    expect(first.filter((r) => r.status === 201)).toHaveLength(PER_CLIENT);
    for (const res of first.filter((r) => r.status !== 201)) expectCapRefusal(res);

    // And another address still gets its own 3
    const second = await burst('drain-tea', '203.0.113.8');
    expect(second.filter((r) => r.status === 201)).toHaveLength(PER_CLIENT);
    for (const res of second.filter((r) => r.status !== 201)) expectCapRefusal(res);

    // When the first address's payer cancels one of its payments
    const token = first.find((r) => r.status === 201)!.body.token as string;
    expect((await request(bases[1]!, 'POST', `/v1/checkout/${token}/cancel`)).status).toBe(200);

    // Then that address may start exactly one more
    expect((await payFromLink(1, 'drain-tea', '203.0.113.7')).status).toBe(201);
    expectCapRefusal(await payFromLink(0, 'drain-tea', '203.0.113.7'));

    // And the shop's own create still finds the card under its daily cap
    const own = await createPaymentRest(setup, shop.apiKey, { amount: 70_000 });
    expect(own.status).toBe(201);
    const pending = await setup.deps.prisma.payment.groupBy({ by: ['linkId'], where: { projectId: shop.projectId, status: 'pending' }, _count: true });
    expect(pending.map((g) => g._count).sort()).toEqual([1, 2 * PER_CLIENT]);
  }, 60_000);

  it('counts per link: the same address holds 3 pending payments on each of two links', async () => {
    // Given two links of one shop
    await liveShopWithLink('drain-one');
    await liveShopWithLink('drain-two');

    // When one address bursts on both
    const [one, two] = await Promise.all([burst('drain-one', '203.0.113.9'), burst('drain-two', '203.0.113.9')]);

    // Then each link gives it 3
    expect(one.filter((r) => r.status === 201)).toHaveLength(PER_CLIENT);
    expect(two.filter((r) => r.status === 201)).toHaveLength(PER_CLIENT);
  }, 60_000);

  it('answers 429 on GraphQL createLinkPayment with the same Retry-After rule', async () => {
    // Given an address holding 3 pending payments of a link through GraphQL
    await liveShopWithLink('drain-gql');
    const create = () =>
      fetch(`${bases[1]}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.4' },
        body: JSON.stringify({ query: 'mutation { createLinkPayment(slug: "drain-gql") { token } }' }),
      });
    const made = await Promise.all(Array.from({ length: BURST }, create));

    // Then 3 answer 200 with a token, the rest 429 rate_limited with Retry-After
    expect(made.filter((r) => r.status === 200)).toHaveLength(PER_CLIENT);
    for (const res of made.filter((r) => r.status !== 200)) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await res.json()).errors[0].extensions.code).toBe('rate_limited');
    }
  }, 60_000);
});
