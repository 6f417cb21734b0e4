import { afterAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { spawnTs, waitFor, type Spawned } from '../support/process.js';
import { Receiver } from '../support/receiver.js';

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

function startWorker(databaseUrl: string): Spawned {
  const worker = spawnTs('src/main.ts', ['--role', 'worker'], testEnv(databaseUrl));
  cleanup.push(() => worker.child.kill('SIGKILL'));
  return worker;
}

describe('webhook crash safety', () => {
  it('a worker killed with SIGKILL during a delivery: after a restart the delivery completes, nothing lost', async () => {
    const receiver = await new Receiver().start();
    cleanup.push(() => receiver.stop());
    // The first request never gets an answer: the worker is mid-delivery when it dies.
    receiver.respond = (_r, res) => {
      if (receiver.received.length > 1) res.writeHead(200).end('ok');
    };
    const api: TestApp = await startTestApp({ role: 'api' });
    cleanup.push(() => api.stop());
    const shop = await makeShop(api);
    await gqlOk(api.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: shop.projectId, u: `${receiver.url}/crash` }, shop.merchantKey);

    const first = startWorker(api.databaseUrl);
    await waitFor(() => first.stdout().includes('worker running'), 45_000, 'the first worker');
    const p = (await createPaymentRest(api, shop.apiKey, { amount: 60_000 })).body;
    await request(api.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
    await receiver.waitFor(1, 15_000);
    first.child.kill('SIGKILL');
    await first.exit;
    // The dead worker's attempt is still its job, active. pg-boss's supervision (every 10 s) hands
    // such a job out again once it is past its expiry (20 s after it started): its start is moved
    // back by that expiry, as if the restart came that much later, rather than the test sitting through it.
    const aged = await api.deps.prisma.$queryRaw<{ expire_seconds: number }[]>`
      UPDATE pgboss.job SET started_on = started_on - make_interval(secs => expire_seconds)
       WHERE name = 'deliver-webhook' AND state = 'active' RETURNING expire_seconds`;
    expect(aged).toHaveLength(1);

    const second = startWorker(api.databaseUrl);
    await waitFor(() => second.stdout().includes('worker running'), 45_000, 'the second worker');
    await receiver.waitFor(2, 60_000);
    let delivery = await api.deps.prisma.webhookDelivery.findFirstOrThrow({ where: { paymentId: p.id } });
    for (let i = 0; i < 50 && delivery.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      delivery = await api.deps.prisma.webhookDelivery.findFirstOrThrow({ where: { paymentId: p.id } });
    }
    expect(delivery.status).toBe('succeeded');
    const [killed, retried] = receiver.received;
    expect(retried!.json.deliveryId).toBe(killed!.json.deliveryId);
    expect(retried!.headers['x-service-delivery']).toBe(delivery.id);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  }, 120_000);
});
