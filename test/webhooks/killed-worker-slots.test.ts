import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, testEnv } from '../support/harness.js';
import { spawnTs, waitFor } from '../support/process.js';
import { Receiver } from '../support/receiver.js';
import { confirmedPayment, shopWithEndpoint } from './endpoint.js';

// The bound after a worker dies holding an endpoint's slot: its other deliveries move on within this.
const FREED_WITHIN_MS = 10_000;
const env = { WEBHOOK_ENDPOINT_CONCURRENCY: '1' };

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('endpoint slots of a killed worker', () => {
  it('a worker killed with SIGKILL while holding the endpoint’s only slot: another worker delivers the endpoint’s next event within 10 s', async () => {
    const receiver = await new Receiver().start();
    cleanup.push(() => receiver.stop());
    // The first POST never gets an answer: the worker holds the slot when it dies.
    receiver.respond = (_r, res) => {
      if (receiver.received.length > 1) res.writeHead(200).end('ok');
    };
    const api = await startTestApp({ role: 'api', env });
    cleanup.push(() => api.stop());
    const shop = await shopWithEndpoint(api, `${receiver.url}/slow`);
    const doomed = spawnTs('src/main.ts', ['--role', 'worker'], testEnv(api.databaseUrl, env));
    cleanup.push(() => doomed.child.kill('SIGKILL'));
    await waitFor(() => doomed.stdout().includes('worker running'), 60_000, 'the first worker').catch((err: Error) => {
      throw new Error(`${err.message}: ${doomed.stderr()}`);
    });
    await confirmedPayment(api, shop.apiKey, 60_000);
    await receiver.waitFor(1, 15_000);
    // Started once the slot is held, so only the doomed worker can be holding it.
    const survivor = await startTestApp({ role: 'worker', env, databaseUrl: api.databaseUrl });
    cleanup.push(() => survivor.stop());

    doomed.child.kill('SIGKILL');
    await doomed.exit;
    const killedAt = Date.now();
    const next = await confirmedPayment(api, shop.apiKey, 61_000);

    await waitFor(() => receiver.received.some((r) => r.json?.paymentId === next.id), 20_000, 'the next event');
    const arrived = receiver.received.find((r) => r.json?.paymentId === next.id)!;
    console.log(`killed worker's slot: the next event arrived ${arrived.at - killedAt} ms after the kill`);
    expect(arrived.at - killedAt).toBeLessThanOrEqual(FREED_WITHIN_MS);
  }, 90_000);
});
