import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAttemptJob } from '../../src/domain/webhooks/attempt-job.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';
import { confirmedPayment, shopWithEndpoint } from './endpoint.js';

let app: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  // Retries an hour away: a second request within the test can only come from a duplicated job.
  app = await startTestApp({ env: { WEBHOOK_RETRY_SCALE: '120' } });
  receiver = await new Receiver().start();
  receiver.respond = (_r, res) => res.writeHead(500).end('down');
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

describe('webhook attempt jobs', () => {
  it('a job that runs again after its attempt was recorded sends nothing and schedules no second retry', async () => {
    const shop = await shopWithEndpoint(app, `${receiver.url}/dup`);
    const p = await confirmedPayment(app, shop.apiKey);
    await receiver.waitFor(1);
    let delivery = await app.deps.prisma.webhookDelivery.findFirstOrThrow({ where: { paymentId: p.id } });
    for (let i = 0; i < 100 && delivery.attemptCount === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      delivery = await app.deps.prisma.webhookDelivery.findFirstOrThrow({ where: { paymentId: p.id } });
    }

    await sendAttemptJob(app.deps.jobs, delivery, 1);
    await sendAttemptJob(app.deps.jobs, delivery, 1);
    await new Promise((r) => setTimeout(r, 1_500));

    expect(receiver.received).toHaveLength(1);
    const retries = await app.deps.prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*)::bigint AS n FROM pgboss.job WHERE name = 'deliver-webhook' AND data->>'deliveryId' = $1 AND (data->>'attempt')::int = 2`,
      delivery.id,
    );
    expect(retries[0]!.n).toBe(1n);
  });
});
