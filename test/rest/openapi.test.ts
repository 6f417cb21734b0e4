import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestApp, type TestApp } from '../support/harness.js';

type Operation = {
  operationId?: string;
  description?: string;
  parameters?: { example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { example?: unknown; schema?: unknown }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

describe('the served OpenAPI document', () => {
  let app: TestApp;
  let text: string;
  let doc: Document;

  beforeAll(async () => {
    app = await startTestApp();
    const res = await request(app.baseUrl, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    text = res.text;
    doc = res.body as Document;
  });
  afterAll(() => app?.stop());

  it('passes Redocly’s recommended rules with no error and no warning', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: `${app.baseUrl}/openapi.json`, config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    expect(found).toEqual([]);
  });

  it('gives every operation an operationId, a description and examples of its request and success answer', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ at: `${method} ${path}`, op })));
    expect(operations.length).toBeGreaterThanOrEqual(12);
    for (const { at, op } of operations) {
      expect(op.operationId, at).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.description?.length, at).toBeGreaterThan(20);
      for (const param of op.parameters ?? []) expect(param.example, at).toBeDefined();
      if (op.requestBody) expect(op.requestBody.content['application/json']?.example, at).toBeDefined();
      const success = Object.entries(op.responses).filter(([status]) => /^2/.test(status));
      expect(success.length, at).toBe(1);
      const [status, answer] = success[0]!;
      // JSON answers, and files (exports: text/csv) by their first media type.
      if (status !== '204') expect((answer.content?.['application/json'] ?? Object.values(answer.content ?? {})[0])?.example, at).toBeDefined();
      expect(Object.keys(op.responses).some((s) => /^4/.test(s)), at).toBe(true);
    }
  });

  it('documents Idempotency-Key and its 409 on every POST that changes state; device intake and sign-in dedupe otherwise', () => {
    const posts = Object.entries(doc.paths).flatMap(([path, ops]) => (ops.post ? [{ path, op: ops.post }] : []));
    const keyed = posts.filter(({ op }) => (op.parameters as { name?: string; in?: string }[] | undefined)?.some((p) => p.name === 'Idempotency-Key' && p.in === 'header'));
    const unkeyed = posts.filter((p) => !keyed.includes(p)).map((p) => p.path);
    expect(unkeyed.every((path) => path.startsWith('/device/') || path.startsWith('/session'))).toBe(true);
    expect(keyed.map((p) => p.path).sort()).toEqual(
      ['/checkout/{token}/cancel', '/checkout/{token}/report', '/links/{slug}/payments', '/payments', '/payments/{id}/refunds', '/payments/{id}/reject', '/payments/{id}/verify', '/sandbox/deposits'].sort(),
    );
    for (const { path, op } of keyed) expect(op.responses['409'], path).toBeDefined();
  });

  it('types amounts as an integer or a digit string and describes the error envelope', () => {
    const body = JSON.stringify(doc.paths['/payments']!.post!.requestBody);
    expect(body).toContain('#/components/schemas/AmountInput');
    expect(doc.components.schemas.AmountInput).toMatchObject({ oneOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(doc.components.schemas.Error).toMatchObject({ required: ['error', 'details'], properties: { error: { required: ['code', 'message', 'details'] } } });
  });
});
