/**
 * One autocannon run, in a process of its own so the load generator never shares an event loop
 * with the server it measures. Argument: a JSON `LoadSpec`; prints one JSON `LoadResult` line.
 * With `rate`, an open loop instead: requests are sent on a fixed schedule whether or not earlier
 * ones were answered (over at most `connections` keep-alive sockets), and each latency counts from
 * when its request was due. autocannon's own `overallRate` is no such thing: every connection sends
 * its share of a second back to back when the second starts, so the "fixed rate" arrives as one
 * burst a second and the p50 measures that burst's queue.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export type LoadSpec = {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  /** `rest-create` / `gql-create`: a fresh body per request, amounts spread so codes never run out. */
  body?: 'rest-create' | 'gql-create' | 'empty';
  projectId?: string;
  seconds: number;
  connections: number;
  /** Requests a second, sent on schedule (an open loop over at most `connections` sockets); unset: autocannon, as fast as answered. */
  rate?: number;
};

export type LoadResult = { rps: number; p50: number; p99: number; non2xx: number; errors: number; firstErrors: string[] };

// Final amounts of one requested amount span amount+10 .. amount+99,990 (maxCode 9,999): amounts
// 100,000 apart never compete for one held amount, so 50 of them give ~500,000 codes per scope.
const AMOUNTS = Array.from({ length: 50 }, (_, i) => 500_000 + i * 100_000);
const CALLBACK = 'https://shop.example.com/return';
const GQL_CREATE = 'mutation($input: CreatePaymentInput!) { createPayment(input: $input) { id status amountFinal code token checkoutUrl expiresAt } }';

function bodyFor(spec: LoadSpec, n: number): string | undefined {
  const amount = AMOUNTS[n % AMOUNTS.length]!;
  if (spec.body === 'rest-create') return JSON.stringify({ amount, callbackUrl: CALLBACK, projectId: spec.projectId });
  if (spec.body === 'gql-create') return JSON.stringify({ query: GQL_CREATE, variables: { input: { amount, callbackUrl: CALLBACK } } });
  if (spec.body === 'empty') return '{}';
  return undefined;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function openLoop(spec: LoadSpec & { rate: number }): Promise<LoadResult> {
  const target = new URL(spec.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(spec.token ? { authorization: `Bearer ${spec.token}` } : {}) };
  const latencies: number[] = [];
  const errorsSeen: string[] = [];
  let non2xx = 0;
  let errors = 0;
  const send = (i: number, due: number) =>
    new Promise<void>((resolve) => {
      const failed = (err: Error) => {
        errors++;
        if (errorsSeen.length < 3) errorsSeen.push(err.message);
        resolve();
      };
      const body = bodyFor(spec, i);
      const req = http.request(
        { host: target.hostname, port: target.port, method: spec.method, path: spec.path, agent, headers: body ? { ...headers, 'content-length': String(Buffer.byteLength(body)) } : headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', failed);
          res.on('end', () => {
            latencies.push(performance.now() - due);
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8');
            const graphqlError = spec.body === 'gql-create' && text.includes('"errors"');
            if (status < 200 || status >= 300 || graphqlError) {
              non2xx++;
              if (errorsSeen.length < 3) errorsSeen.push(`${status} ${text.slice(0, 300)}`);
            }
            resolve();
          });
        },
      );
      // As autocannon's default: an answer that takes 10 s counts as an error, never a hung run.
      req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')));
      req.on('error', failed);
      req.end(body);
    });
  const total = Math.round(spec.seconds * spec.rate);
  const interval = 1000 / spec.rate;
  const started = performance.now();
  const sent: Promise<void>[] = [];
  for (let i = 0; i < total; ) {
    // Everything due by now goes out (a late timer never thins the schedule), then sleep to the next.
    while (i < total && started + i * interval <= performance.now()) {
      sent.push(send(i, started + i * interval));
      i++;
    }
    if (i < total) await new Promise((r) => setTimeout(r, Math.max(0, started + i * interval - performance.now())));
  }
  await Promise.all(sent);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const ms = (x: number) => Math.round(x * 10) / 10;
  return { rps: latencies.length / elapsed, p50: ms(percentile(sorted, 50)), p99: ms(percentile(sorted, 99)), non2xx, errors, firstErrors: errorsSeen };
}

const spec = JSON.parse(process.argv[2]!) as LoadSpec;
if (spec.rate) {
  console.log(JSON.stringify(await openLoop({ ...spec, rate: spec.rate })));
  process.exit(0);
}
const firstErrors: string[] = [];
let n = 0;
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  headers: { 'content-type': 'application/json', ...(spec.token ? { authorization: `Bearer ${spec.token}` } : {}) },
  requests: [
    {
      method: spec.method,
      path: spec.path,
      ...(spec.body ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: bodyFor(spec, n++) }) } : {}),
      onResponse: (status: number, body: string) => {
        const graphqlError = spec.body === 'gql-create' && body.includes('"errors"');
        if ((status < 200 || status >= 300 || graphqlError) && firstErrors.length < 3) firstErrors.push(`${status} ${body.slice(0, 300)}`);
      },
    },
  ],
});
const out: LoadResult = {
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  firstErrors,
};
console.log(JSON.stringify(out));
