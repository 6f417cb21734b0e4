import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

// The audits are built per URL; the port is only known once the app runs, so they are listed with
// a placeholder and each one is re-created against the real server when it runs.
const names = serverAudits({ url: 'http://placeholder/graphql' }).map((a) => a.name);

describe('GraphQL over HTTP (graphql-http server audits against the real server)', () => {
  it.each(names.filter((n) => /^(MUST|SHOULD)\b/.test(n)))('%s', async (name) => {
    const audit = serverAudits({ url: `${app.baseUrl}/graphql` }).find((a) => a.name === name)!;
    const result = await audit.fn();
    expect(result.status === 'ok' ? 'ok' : `${result.status}: ${result.reason}`).toBe('ok');
  });
});
