import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, makeShop, request, startTestApp, type HttpResult, type TestApp } from '../support/harness.js';

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '40' } });
  shop = await makeShop(app);
});
afterAll(() => app.stop());

function expectEnvelope(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.details).toEqual(res.body.details);
}

/** Raw HTTP, for requests fetch refuses to send (huge headers). */
function rawHttp(text: string): Promise<string> {
  const { port } = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (c) => (out += c.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('CORS: any origin, never credentials', () => {
  it.each(['/graphql', '/v1/payments', '/healthz', '/nope'])('%s answers a preflight with 204, no body, and * without credentials', async (path) => {
    const res = await fetch(`${app.baseUrl}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
  });

  it('sends * and no credentials on an ordinary GraphQL and REST answer', async () => {
    for (const path of ['/graphql', '/v1/payments']) {
      const res = await fetch(`${app.baseUrl}${path}`, {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});

describe('every error answer is the JSON envelope', () => {
  it('405 with Allow for a known REST path and a method it does not serve', async () => {
    const res = await request(app.baseUrl, 'DELETE', '/v1/payments', { token: shop.apiKey });
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toContain('POST');
    expectEnvelope(await request(app.baseUrl, 'PUT', '/v1/device/heartbeat'), 405, 'method_not_allowed');
  });

  it('404 for unknown paths and methods', async () => {
    expectEnvelope(await request(app.baseUrl, 'PATCH', '/v1/unknown'), 404, 'not_found');
    expectEnvelope(await request(app.baseUrl, 'GET', '/.env'), 404, 'not_found');
  });

  it('431 for headers over 16 KiB, before Express', async () => {
    const answer = await rawHttp(`GET /v1/payments HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1.1 431/);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body!).error.code).toBe('headers_too_large');
  });

  it('400 for a request that is not HTTP', async () => {
    const answer = await rawHttp('HELLO\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1.1 400/);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!).error.code).toBe('invalid_request');
  });
});

type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/**
 * A POST through node:http, which sends exactly the framing asked for (fetch decides Content-Length
 * and chunking itself). It gives up after `timeoutMs`: a server that waits for a body that already
 * ended fails the test with that timeout instead of hanging it.
 */
function rawSend(method: string, path: string, headers: Record<string, string>, chunks: string[], timeoutMs = 5_000): Promise<RawAnswer> {
  const { port } = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), path, method, headers, timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const rawPost = (path: string, headers: Record<string, string>, chunks: string[]) => rawSend('POST', path, headers, chunks);
const EMPTY_BODIES = { 'Content-Length: 0': { 'content-length': '0' }, 'chunked, no chunk': { 'transfer-encoding': 'chunked' } };

describe('GraphQL over HTTP: a body that is not JSON is 400 at once, however it is framed', () => {
  function expectInvalidJson(answer: RawAnswer) {
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/(graphql-response\+)?json/);
    expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('invalid_json');
  }

  it('Content-Length: 0', async () => {
    expectInvalidJson(await rawPost('/graphql', { 'content-type': 'application/json', 'content-length': '0' }, []));
  });

  it('Transfer-Encoding: chunked with no chunk', async () => {
    expectInvalidJson(await rawPost('/graphql', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, []));
  });

  it('a body that is not JSON, with Content-Length and chunked', async () => {
    expectInvalidJson(await rawPost('/graphql', { 'content-type': 'application/json', 'content-length': '5' }, ['hello']));
    expectInvalidJson(await rawPost('/graphql', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, ['{"query"', ': ']));
  });

  it('whitespace only, and an empty body under the GraphQL response type', async () => {
    expectInvalidJson(await rawPost('/graphql', { 'content-type': 'application/json', 'content-length': '2' }, [' \n']));
    expectInvalidJson(
      await rawPost('/graphql', { 'content-type': 'application/json', accept: 'application/graphql-response+json', 'content-length': '0' }, []),
    );
  });

  it.each(Object.entries(EMPTY_BODIES))('every other method answers an empty body (%s) at once', async (_framing, framing) => {
    const headers = { 'content-type': 'application/json', ...framing };
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const answer = await rawSend(method, '/graphql', headers, []);
      expect(answer.status, method).toBe(405);
      expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('method_not_allowed');
    }
    const get = await rawSend('GET', '/graphql?query=%7B__typename%7D', headers, []);
    expect(get.status).toBe(200);
    expect(JSON.parse(get.text)).toEqual({ data: { __typename: 'Query' } });
    // Asking for an event stream: the refusal comes at once too, whatever its framing.
    const sse = await rawPost('/graphql', { ...headers, accept: 'text/event-stream' }, []);
    expect(sse.status).toBe(400);
  });
});

describe('GraphQL over HTTP transport errors', () => {
  it('answers a body that is not JSON with 400 invalid_json, whatever the Accept', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await request(app.baseUrl, 'POST', '/graphql', { rawBody: '{"query": ', headers: { 'content-type': 'application/json', accept } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('invalid_json');
    }
  });

  it('caps bodies at 64 KiB like REST (413 envelope) and accepts one just under', async () => {
    const over = JSON.stringify({ query: `{ __typename }`, variables: { pad: 'x'.repeat(64 * 1024) } });
    expectEnvelope(await request(app.baseUrl, 'POST', '/graphql', { rawBody: over, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
    const under = JSON.stringify({ query: `{ __typename }`, variables: { pad: 'x'.repeat(60 * 1024) } });
    const ok = await request(app.baseUrl, 'POST', '/graphql', { rawBody: under, headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ __typename: 'Query' });
  });

  it('caps a chunked body (no Content-Length) at 64 KiB too, whatever the method', async () => {
    // The HTTP adapter is the only cap (Yoga's own is off): a body sent in chunks is counted as it comes.
    const chunked = (method: string, size: number) =>
      fetch(`${app.baseUrl}/graphql`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream({
          start(controller) {
            const prefix = '{"query":"{ __typename }","variables":{"pad":"';
            controller.enqueue(new TextEncoder().encode(prefix));
            for (let sent = 0; sent < size; sent += 8192) controller.enqueue(new TextEncoder().encode('x'.repeat(8192)));
            controller.enqueue(new TextEncoder().encode('"}}'));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const res = await chunked(method, 80 * 1024);
      expect(res.headers.get('content-length')).not.toBeNull();
      expect(res.status, method).toBe(413);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    }
    const ok = await chunked('POST', 16 * 1024);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('answers an unsupported media type and method with JSON bodies and catalog codes', async () => {
    const media = await request(app.baseUrl, 'POST', '/graphql', { rawBody: 'query', headers: { 'content-type': 'text/plain' } });
    expect(media.status).toBe(415);
    expect(media.body.errors[0].extensions.code).toBe('unsupported_media_type');
    const method = await request(app.baseUrl, 'PUT', '/graphql', { rawBody: '{}', headers: { 'content-type': 'application/json' } });
    expect(method.status).toBe(405);
    expect(method.body.errors[0].extensions.code).toBe('method_not_allowed');
  });

  it('answers a rate-limited GraphQL request with HTTP 429 and Retry-After', async () => {
    let res: HttpResult | undefined;
    // Past the limit of 40 twice over: a minute's window may turn over once while the loop runs.
    for (let i = 0; i < 85; i++) {
      res = await request(app.baseUrl, 'POST', '/graphql', { token: shop.apiKey, body: { query: '{ __typename }' } });
      if (res.status === 429) break;
    }
    expect(res!.status).toBe(429);
    expect(Number(res!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res!.body.errors[0].extensions.code).toBe('rate_limited');
    expect(JSON.stringify(res!.body)).not.toContain('"http"');
  });

  it('answers a syntax error over server-sent events with invalid_request', async () => {
    const res = await fetch(`${app.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: '{ viewer { ' }),
    });
    const text = await res.text();
    const data = text.split('\n').find((l) => l.startsWith('data: {'));
    expect(JSON.parse(data!.slice(6)).errors[0].extensions.code).toBe('invalid_request');
  });

  it('keeps validation errors as 200 under application/json, with invalid_request', async () => {
    const res = await gql(app.baseUrl, '{ nope }');
    expect(res.status).toBe(200);
    expect(res.errors?.[0]?.extensions.code).toBe('invalid_request');
  });
});
