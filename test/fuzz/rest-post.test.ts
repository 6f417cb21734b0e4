import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/rest/openapi.js';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { expectCatalogCode, FUZZ_RUNS, hostileJson, hostileNumber, hostileString, RowCountGuard } from './support.js';

let app: TestApp;
let sandbox: Awaited<ReturnType<typeof makeShop>>;
let live: Awaited<ReturnType<typeof makeShop>>;
let payment: { id: string; token: string };
const SLUG = 'fuzz-link';

beforeAll(async () => {
  app = await startTestApp({ env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PER_MINUTE: '100000' } });
  sandbox = await makeShop(app);
  live = await makeShop(app, { sandbox: false, credit: 1_000_000 });
  payment = (await createPaymentRest(app, sandbox.apiKey, { amount: 20_000 })).body;
  await gqlOk(
    app.baseUrl,
    'mutation($i: CreatePaymentLinkInput!) { createPaymentLink(input: $i) { slug } }',
    { i: { projectId: sandbox.projectId, slug: SLUG, title: 'Fuzz', minAmount: 10_000, maxAmount: 100_000 } },
    sandbox.merchantKey,
  );
});
afterAll(() => app.stop());

type Operation = { post?: { requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, unknown> } } } } } };
const paths = openApiDocument('http://x').paths as Record<string, Operation>;
const postRoutes = Object.entries(paths)
  .filter(([, op]) => op.post)
  .map(([path, op]) => ({ path, fields: Object.keys(op.post!.requestBody?.content['application/json'].schema.properties ?? {}) }));

function credentialFor(path: string) {
  if (path.startsWith('/device')) return live.deviceToken;
  if (path.startsWith('/checkout') || path.startsWith('/links')) return undefined;
  return sandbox.apiKey;
}

/** Percent-encodes anything, unpaired surrogates included (as their WTF-8 bytes: invalid UTF-8 in the path). */
function encodeSegment(s: string): string {
  return Array.from(s, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      const u = ch.charCodeAt(0);
      return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
  }).join('');
}

const RAW_BODIES = ['{', 'null', '[]', '"x"', '{"a":1,"__proto__":{"b":2}}', '{"metadata":{"__proto__":1}}', '\u0000', '{"amount":1e400}'];

/**
 * The one write a refusal must make: a failed sign-in or password check (401) is recorded in
 * login_attempts, since that record is what throttles the next guesses.
 */
function withoutFailureRecords(path: string, status: number, counts: Record<string, number>) {
  if (status !== 401 || !path.startsWith('/session')) return counts;
  const { login_attempts: _failures, ...rest } = counts;
  return rest;
}

describe('property: every REST POST route refuses hostile input with the envelope and writes nothing', () => {
  it('covers every POST route of the OpenAPI document', () => {
    expect(postRoutes.length).toBeGreaterThanOrEqual(8);
  });

  it.each(postRoutes)('POST /v1$path', async ({ path, fields }) => {
    const known = () => [payment.id, payment.token, SLUG, 'match', 'custom', new Date().toISOString(), 'https://shop.example.com/r'];
    const param = fc.oneof(fc.constantFrom(payment.id, payment.token, SLUG, '00000000-0000-4000-8000-000000000000'), hostileString());
    const structured = fc.dictionary(fc.constantFrom(...fields, 'extra'), fc.oneof(hostileString(known()), hostileNumber, hostileJson(known())), { maxKeys: fields.length + 1 });
    const body = fc.oneof(
      { weight: 4, arbitrary: structured.map((b) => ({ json: b as unknown })) },
      { weight: 1, arbitrary: hostileJson().map((b) => ({ json: b })) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((raw) => ({ raw })) },
    );
    const credential = fc.constantFrom(credentialFor(path), credentialFor(path), undefined, 'sk_test_junk');
    const rows = new RowCountGuard(app);

    await fc.assert(
      fc.asyncProperty(param, body, credential, fc.option(hostileString(), { nil: undefined }), async (p, b, token, idemKey) => {
        const url = `/v1${path.replace(/\{[^}]+\}/g, () => encodeSegment(p))}`;
        const before = await rows.before();
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (idemKey !== undefined && !/[^\x20-\x7e]/.test(idemKey)) headers['idempotency-key'] = idemKey;
        const rawBody = 'raw' in b ? b.raw : JSON.stringify(b.json);
        const res = await request(app.baseUrl, 'POST', url, { token, rawBody, headers });
        const context = `${url} ${rawBody?.slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;
        expect(res.status, context).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.headers.get('content-type'), context).toMatch(/^application\/json/);
          expectCatalogCode(res.body?.error?.code, context);
          expect(typeof res.body.error.message, context).toBe('string');
          expect(res.body.details, context).toEqual(res.body.error.details);
        }
        const after = await rows.after();
        if (res.status >= 400) expect(withoutFailureRecords(path, res.status, after), context).toEqual(withoutFailureRecords(path, res.status, before));
      }),
      { numRuns: Math.ceil(FUZZ_RUNS * 1.5) },
    );
  });
});
