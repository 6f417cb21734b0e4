import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { MANUAL_WEBHOOKS_PER_MINUTE } from '../../src/domain/rate-limits.js';
import { withEndpointSlot } from '../../src/domain/webhooks/slots.js';
import { gqlOk, request, startTestApp, type TestApp } from '../support/harness.js';
import { clearOfWindowEdge } from '../support/rate-window.js';
import { Receiver, type Received } from '../support/receiver.js';
import { confirmedPayment, shopWithEndpoint } from './endpoint.js';

// The 30 sends that pass the limit queue for these slots, and the last of them must find one within a
// manual send's 10 s: 8 rounds of ANSWER_MS (and the 200 ms look-again), not 15, leave room on a loaded machine.
const PER_ENDPOINT = 4;
const ANSWER_MS = 100;
// Longer than a manual send waits for a slot (10 s).
const HANG_MS = 12_000;

let app: TestApp;
let receiver: Receiver;
const open = new Map<string, number>();
const peak = new Map<string, number>();

/** Answers after ANSWER_MS (paths starting /hang: after HANG_MS), counting the POSTs open per path. */
function respond(r: Received, res: ServerResponse) {
  const now = (open.get(r.path) ?? 0) + 1;
  open.set(r.path, now);
  peak.set(r.path, Math.max(peak.get(r.path) ?? 0, now));
  setTimeout(
    () => {
      open.set(r.path, (open.get(r.path) ?? 1) - 1);
      if (!res.destroyed) res.writeHead(200).end('ok');
    },
    r.path.startsWith('/hang') ? HANG_MS : ANSWER_MS,
  );
}

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_ENDPOINT_CONCURRENCY: String(PER_ENDPOINT) } });
  receiver = await new Receiver().start();
  receiver.respond = respond;
});
afterAll(async () => {
  await receiver.stop();
  await app.stop();
});

const SEND_TEST = `mutation { sendTestWebhook { id status } }`;
const REDELIVER = `mutation($d: ID!) { redeliverWebhook(deliveryId: $d) { id status } }`;

function manualSend(apiKey: string, query: string, variables: Record<string, unknown> = {}) {
  return request(app.baseUrl, 'POST', '/graphql', { token: apiKey, body: { query, variables } });
}

async function firstDeliveryOf(apiKey: string, paymentId: string): Promise<string> {
  const q = `query($p: ID) { webhookDeliveries(paymentId: $p, first: 1) { edges { node { id } } } }`;
  const list = await gqlOk(app.baseUrl, q, { p: paymentId }, apiKey);
  return list.webhookDeliveries.edges[0].node.id as string;
}

// At once: the busy send's 10 s wait for a slot runs beside the burst (their endpoints and projects differ).
describe.concurrent('manual webhook sends', () => {
  it('400 concurrent re-sends and test events never put more POSTs in flight at the endpoint than its slots, and past the project’s manual limit answer 429 rate_limited with Retry-After', async ({ expect }) => {
    const shop = await shopWithEndpoint(app, `${receiver.url}/burst`);
    const payment = await confirmedPayment(app, shop.apiKey);
    await receiver.waitFor(1, 10_000);
    const deliveryId = await firstDeliveryOf(shop.apiKey, payment.id);
    // Each send is counted as it arrives, before it waits for a slot: only the 400 arrivals (a few
    // seconds on a loaded machine) must fit in one window, not the sends.
    await clearOfWindowEdge(15_000);

    const timed = async (send: () => ReturnType<typeof manualSend>) => {
      const started = Date.now();
      const res = await send();
      return { ...res, ms: Date.now() - started };
    };
    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        timed(() => (i % 2 === 0 ? manualSend(shop.apiKey, SEND_TEST) : manualSend(shop.apiKey, REDELIVER, { d: deliveryId }))),
      ),
    );

    expect(peak.get('/burst')).toBeLessThanOrEqual(PER_ENDPOINT);
    // The sends did meet at the endpoint: the limit was in play, not merely unreached.
    expect(peak.get('/burst')).toBeGreaterThan(1);
    // Every slot was given back.
    expect(await app.deps.prisma.webhookEndpointSlot.count({ where: { endpointId: shop.endpointId } })).toBe(0);
    const busy = (a: (typeof answers)[number]) => a.status === 429 && a.body.errors[0].extensions.details?.reason === 'endpoint_busy';
    const sent = answers.filter((a) => a.status === 200);
    for (const a of sent) expect(a.body.data).not.toBeNull();
    // The limit let exactly 30 through. Each was sent, or, on a machine too loaded to work through
    // them in time, waited its whole 10 s for a slot and was told the endpoint is busy.
    const waitedOut = answers.filter(busy);
    console.log(`manual sends: ${sent.length} sent, ${waitedOut.length} waited out the busy endpoint`);
    expect(sent.length + waitedOut.length).toBe(MANUAL_WEBHOOKS_PER_MINUTE);
    expect(sent.length, 'slots were taken again after their sends').toBeGreaterThanOrEqual(2 * PER_ENDPOINT);
    for (const a of waitedOut) expect(a.ms).toBeGreaterThanOrEqual(9_700);
    const limited = answers.filter((a) => a.status === 429 && !busy(a));
    expect(limited).toHaveLength(400 - MANUAL_WEBHOOKS_PER_MINUTE);
    for (const a of limited) {
      expect(a.body.errors[0].extensions.code).toBe('rate_limited');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  }, 60_000);

  it('a manual send that finds every slot held for 10 s answers 429 rate_limited (endpoint_busy) and sends nothing', async ({ expect }) => {
    const shop = await shopWithEndpoint(app, `${receiver.url}/hang`);
    const endpoint = await app.deps.prisma.webhookEndpoint.findUniqueOrThrow({ where: { projectId: shop.projectId } });
    // Every slot held until the busy send has answered, as attempts at a slow endpoint hold them. (Held
    // by POSTs that hang, the slots came free at the POSTs' own 10 s timeout, which a send starting to
    // wait a moment later outlasted on a loaded machine.)
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    const held = Array.from({ length: PER_ENDPOINT }, () =>
      withEndpointSlot(app.deps, { endpointId: endpoint.id, holderId: randomUUID(), limit: PER_ENDPOINT }, async () => {
        holding++;
        await released;
      }),
    );
    const until = Date.now() + 10_000;
    while (holding < PER_ENDPOINT && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(holding).toBe(PER_ENDPOINT);
    const before = await app.deps.prisma.webhookDelivery.count({ where: { projectId: shop.projectId } });

    const asked = Date.now();
    const busy = await manualSend(shop.apiKey, SEND_TEST);
    const waited = Date.now() - asked;
    release();
    expect((await Promise.all(held)).every((h) => h !== null)).toBe(true);

    expect(busy.status).toBe(429);
    expect(waited, 'it waited its 10 s for a slot').toBeGreaterThanOrEqual(9_700);
    expect(busy.body.errors[0].extensions).toMatchObject({ code: 'rate_limited', details: { reason: 'endpoint_busy' } });
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(receiver.received.filter((r) => r.path.startsWith('/hang'))).toHaveLength(0);
    expect(await app.deps.prisma.webhookDelivery.count({ where: { projectId: shop.projectId } })).toBe(before);
  }, 30_000);
});
