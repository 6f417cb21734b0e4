import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMerchant, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let mk: string;

beforeAll(async () => {
  app = await startTestApp();
  ({ merchantKey: mk } = await makeMerchant(app, { name: 'Socket' }));
});
afterAll(() => app.stop());

function wsQuery(connectionParams: Record<string, unknown>, query: string): Promise<unknown> {
  const client = createClient({ url: `${app.baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
  return new Promise((resolve, reject) => {
    let result: unknown;
    client.subscribe({ query }, { next: (v) => (result = v), error: reject, complete: () => resolve(result) });
  }).finally(() => client.dispose());
}

describe('GraphQL transports on one port', () => {
  it('answers over graphql-ws with the credential in the connection params', async () => {
    const result = await wsQuery({ Authorization: `Bearer ${mk}` }, '{ viewer { kind merchant { name } } }');
    expect(result).toEqual({ data: { viewer: { kind: 'merchant', merchant: { name: 'Socket' } } } });
  });

  it('refuses over graphql-ws without a credential, with the catalog code', async () => {
    const result = (await wsQuery({}, '{ viewer { kind } }')) as { errors: { extensions: { code: string } }[] };
    expect(result.errors[0]!.extensions.code).toBe('unauthorized');
  });

  it('answers over server-sent events', async () => {
    const res = await fetch(`${app.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${mk}` },
      body: JSON.stringify({ query: '{ viewer { kind } }' }),
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const text = await res.text();
    const dataLine = text.split('\n').find((l) => l.startsWith('data: {'));
    expect(JSON.parse(dataLine!.slice(6))).toEqual({ data: { viewer: { kind: 'merchant' } } });
  });

  it('serves GraphiQL from the package, with no CDN', async () => {
    const res = await fetch(`${app.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toMatch(/graphiql/i);
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdn\./);
  });
});
