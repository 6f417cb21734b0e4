import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPRECATED_ROUTES, deprecationHeaders, MINIMUM_NOTICE_MONTHS, type DeprecatedRoute } from '../../src/rest/deprecations.js';
import { request, startTestApp, type TestApp } from '../support/harness.js';

/** docs/versioning.md: how a /v1 route is marked deprecated, and the rules every marking keeps. */

const sample: DeprecatedRoute = {
  method: 'GET',
  path: '/payments/{id}',
  deprecatedAt: new Date('2026-12-01T00:00:00Z'),
  sunsetAt: new Date('2027-12-01T00:00:00Z'),
  link: 'https://pay.example.com/docs/versioning#changelog',
};

describe('deprecationHeaders, on a real server', () => {
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  let base = '';

  beforeAll(async () => {
    const app = express();
    const v1 = express.Router();
    v1.use(deprecationHeaders([sample]));
    v1.get('/payments/:id', (req, res) => void (req.params.id === 'missing' ? res.status(404).json({ error: { code: 'not_found' } }) : res.json({ id: req.params.id })));
    v1.post('/payments/:id/verify', (_req, res) => void res.json({ verified: true }));
    v1.post('/payments/:id', (_req, res) => void res.status(405).end());
    app.use('/v1', v1);
    await new Promise<void>((resolve) => (server = app.listen(0, '127.0.0.1', () => resolve())));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('marks every answer of the route, errors too, with RFC 9745 Deprecation, RFC 8594 Sunset and the Link', async () => {
    for (const id of ['abc', 'missing']) {
      const res = await fetch(`${base}/v1/payments/${id}`);
      expect(res.headers.get('deprecation')).toBe('@1796083200');
      expect(res.headers.get('sunset')).toBe('Wed, 01 Dec 2027 00:00:00 GMT');
      expect(res.headers.get('link')).toBe('<https://pay.example.com/docs/versioning#changelog>; rel="deprecation"; type="text/html"');
    }
    expect((await fetch(`${base}/v1/payments/abc`, { method: 'HEAD' })).headers.get('deprecation')).toBe('@1796083200');
  });

  it('leaves other routes and other methods of the path alone', async () => {
    const verify = await fetch(`${base}/v1/payments/abc/verify`, { method: 'POST' });
    expect(verify.status).toBe(200);
    expect(verify.headers.get('deprecation')).toBeNull();
    const post = await fetch(`${base}/v1/payments/abc`, { method: 'POST' });
    expect(post.headers.get('deprecation')).toBeNull();
    expect(post.headers.get('sunset')).toBeNull();
  });
});

describe('the deprecated routes of /v1', () => {
  let app: TestApp;
  let doc: { paths: Record<string, Record<string, { deprecated?: boolean }>> };

  beforeAll(async () => {
    app = await startTestApp({ role: 'api' });
    doc = (await request(app.baseUrl, 'GET', '/openapi.json')).body;
  });
  afterAll(() => app?.stop());

  it.each(DEPRECATED_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: a served operation marked deprecated, sunset at least the minimum notice later', (_name, route) => {
    expect(doc.paths[route.path]?.[route.method.toLowerCase()]?.deprecated).toBe(true);
    const earliest = new Date(route.deprecatedAt);
    earliest.setUTCMonth(earliest.getUTCMonth() + MINIMUM_NOTICE_MONTHS);
    expect(route.sunsetAt.getTime()).toBeGreaterThanOrEqual(earliest.getTime());
    expect(route.link).toMatch(/^https:\/\//);
  });

  it('an operation the document marks deprecated is in the list (so its answers say so)', () => {
    const marked = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).filter(([, op]) => op?.deprecated === true).map(([method]) => `${method.toUpperCase()} ${path}`));
    expect(marked.sort()).toEqual(DEPRECATED_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('today nothing is deprecated: answers carry no Deprecation or Sunset', async () => {
    const res = await request(app.baseUrl, 'GET', '/v1/payments/00000000-0000-4000-8000-000000000000', { token: 'sk_test_nope' });
    expect(res.status).toBe(401);
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('sunset')).toBeNull();
  });
});
