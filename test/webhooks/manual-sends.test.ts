import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANUAL_WEBHOOKS_PER_MINUTE } from '../../src/domain/rate-limits.js';
import { withEndpointSlot } from '../../src/domain/webhooks/slots.js';
import { gqlOk, request, startTestApp, type TestApp } from '../support/harness.js';
import { clearOfWindowEdge } from '../support/rate-window.js';
import { Receiver, type Received } from '../support/receiver.js';
import { confirmedPayment, shopWithEndpoint } from './endpoint.js';

const PER_ENDPOINT = 2;
const ANSWER_MS = 300;
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

describe('manual webhook sends', () => {
  it('400 concurrent re-sends and test events never put more POSTs in flight at the endpoint than its slots, and past the project’s manual limit answer 429 rate_limited with Retry-After', async () => {
    const shop = await shopWithEndpoint(app, `${receiver.url}/burst`);
    const payment = await confirmedPayment(app, shop.apiKey);
    await receiver.waitFor(1, 10_000);
    const deliveryId = await firstDeliveryOf(shop.apiKey, payment.id);
    await clearOfWindowEdge(30_000);

    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? manualSend(shop.apiKey, SEND_TEST) : manualSend(shop.apiKey, REDELIVER, { d: deliveryId }))),
    );

    expect(peak.get('/burst')).toBeLessThanOrEqual(PER_ENDPOINT);
    const sent = answers.filter((a) => a.status === 200);
    expect(sent).toHaveLength(MANUAL_WEBHOOKS_PER_MINUTE);
    for (const a of sent) expect(a.body.data).not.toBeNull();
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(400 - MANUAL_WEBHOOKS_PER_MINUTE);
    for (const a of limited) {
      expect(a.body.errors[0].extensions.code).toBe('rate_limited');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  }, 60_000);

  it('a manual send that finds every slot held for 10 s answers 429 rate_limited (endpoint_busy) and sends nothing', async () => {
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

    const busy = await manualSend(shop.apiKey, SEND_TEST);
    release();
    expect((await Promise.all(held)).every((h) => h !== null)).toBe(true);

    expect(busy.status).toBe(429);
    expect(busy.body.errors[0].extensions).toMatchObject({ code: 'rate_limited', details: { reason: 'endpoint_busy' } });
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(receiver.received.filter((r) => r.path.startsWith('/hang'))).toHaveLength(0);
    expect(await app.deps.prisma.webhookDelivery.count({ where: { projectId: shop.projectId } })).toBe(before);
  }, 30_000);
});
