/**
 * One autocannon run, in a process of its own so the load generator never shares an event loop
 * with the server it measures. Argument: a JSON `LoadSpec`; prints one JSON `LoadResult` line.
 */
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

const spec = JSON.parse(process.argv[2]!) as LoadSpec;
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
