import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { call, inLanes, machine, seedShop, startBench } from './support.js';

/**
 * Issue 9: the service's memory stays flat when SSE subscriptions come and go. Opens and closes
 * 2,000 `checkoutStatus` subscriptions against the API (in this process, so its heap is the one
 * measured), then compares the heap after full garbage collection with the heap before, and counts
 * what the notifier still holds. Run: `npm run bench -- sse-memory` (SSE_COUNT to change 2,000).
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 6; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  return process.memoryUsage().heapUsed;
}

async function openAndClose(baseUrl: string, token: string): Promise<void> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription($t: String!) { checkoutStatus(token: $t) { status } }', variables: { t: token } }),
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  // The first event (the current view) means the subscription is fully set up server-side.
  for (let seen = ''; !seen.includes('event: next'); ) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += new TextDecoder().decode(value);
  }
  controller.abort();
  await reader.cancel().catch(() => undefined);
}

const COUNT = Number(process.env.SSE_COUNT ?? 2000);
const setup = await startBench();
try {
  const shop = await seedShop(setup, { sandbox: true });
  const payment = await call<{ token: string }>(setup.baseUrl, 'POST', '/v1/payments', shop.apiKey, { amount: 100_000, callbackUrl: 'https://shop.example.com/r' });
  const notifier = setup.api.deps.notifier!;

  // Warm-up: lazily built things (schema caches, pools, JIT) are part of the baseline, not a leak.
  await inLanes(200, 50, () => openAndClose(setup.baseUrl, payment.token));
  const waitReleased = async () => {
    for (let i = 0; i < 200 && notifier.stats().feeds > 0; i++) await new Promise((r) => setTimeout(r, 25));
  };
  await waitReleased();
  const before = await settledHeap();
  const started = Date.now();
  await inLanes(COUNT, 50, () => openAndClose(setup.baseUrl, payment.token));
  await waitReleased();
  const after = await settledHeap();
  const held = notifier.stats();
  const ratio = after / before;
  console.log(`# SSE subscriptions opened and closed: ${COUNT} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(machine(setup.dbLabel));
  console.log(`heap after GC before: ${(before / 2 ** 20).toFixed(1)} MiB; after: ${(after / 2 ** 20).toFixed(1)} MiB; after/before ${ratio.toFixed(3)} (${((ratio - 1) * 100).toFixed(1)} %)`);
  console.log(`notifier still holding: ${held.feeds} subscriptions, ${held.listeners} listeners`);
  if (held.feeds !== 0 || ratio > 1.05) {
    console.log('NOT FLAT: more than 5 % growth or subscriptions still held');
    process.exitCode = 1;
  }
} finally {
  await setup.stop();
}
