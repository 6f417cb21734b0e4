import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPaymentRest, makeShop, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  app = await startTestApp();
  shop = await makeShop(app);
});
afterAll(() => app.stop());

type Message = { type: string; id?: string; payload?: any };

/** A raw graphql-transport-ws socket, so that malformed operations can be sent as they are. */
async function openSocket() {
  const socket = new WebSocket(`${app.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const received: Message[] = [];
  let closed: { code: number } | null = null;
  socket.on('message', (data) => received.push(JSON.parse(String(data))));
  socket.on('close', (code) => (closed = { code }));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${shop.apiKey}` } }));
  const waitFor = async (pred: (m: Message) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const found = received.find(pred);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no such message; got ${JSON.stringify(received)}`);
  };
  await waitFor((m) => m.type === 'connection_ack');
  const subscribe = (id: string, query: string, variables?: Record<string, unknown>) =>
    socket.send(JSON.stringify({ type: 'subscribe', id, payload: { query, variables } }));
  return { socket, received, waitFor, subscribe, isClosed: () => closed };
}

describe('GraphQL over WebSocket: a bad operation errors that operation only', () => {
  it('answers a syntax error and an over-long document with an error for their ids, keeping the socket and its subscriptions', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const ws = await openSocket();
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 30_000 })).body;
    ws.subscribe('live', 'subscription($id: ID!) { paymentUpdated(id: $id) { status } }', { id: payment.id });
    await new Promise((r) => setTimeout(r, 100));

    ws.subscribe('bad-syntax', '{ viewer { ');
    const syntax = await ws.waitFor((m) => m.id === 'bad-syntax');
    expect(syntax.type).toBe('error');
    expect(syntax.payload[0].extensions.code).toBe('invalid_request');

    ws.subscribe('too-long', `{ ${Array.from({ length: 3000 }, () => '__typename').join(' ')} }`);
    const long = await ws.waitFor((m) => m.id === 'too-long');
    expect(long.type).toBe('error');
    expect(long.payload[0].extensions.code).toBe('invalid_request');

    ws.subscribe('invalid', '{ nope }');
    const invalid = await ws.waitFor((m) => m.id === 'invalid');
    expect(invalid.type).toBe('error');
    expect(invalid.payload[0].extensions.code).toBe('invalid_request');
    expect(JSON.stringify(invalid.payload)).not.toContain('GRAPHQL_VALIDATION_FAILED');

    // The subscription opened before the bad operations still delivers.
    await createPaymentRest(app, shop.apiKey, { amount: 30_010 });
    await fetch(`${app.baseUrl}/v1/checkout/${payment.token}/cancel`, { method: 'POST' });
    const next = await ws.waitFor((m) => m.id === 'live' && m.type === 'next' && m.payload?.data?.paymentUpdated?.status === 'canceled');
    expect(next).toBeTruthy();
    expect(ws.isClosed()).toBeNull();

    ws.subscribe('after', '{ __typename }');
    expect((await ws.waitFor((m) => m.id === 'after' && m.type === 'next')).payload).toEqual({ data: { __typename: 'Query' } });
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
    ws.socket.close();
  });

  it('answers variables that break a rule with the catalog code for that operation', async () => {
    const ws = await openSocket();
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 30_020 })).body;
    ws.subscribe('nul', 'mutation($id: ID!, $r: String!) { rejectPayment(id: $id, reason: $r) { id } }', { id: payment.id, r: 'a\u0000b' });
    const res = await ws.waitFor((m) => m.id === 'nul' && m.type === 'next');
    expect(res.payload.errors[0].extensions).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'reason' }] } });
    expect(ws.isClosed()).toBeNull();
    ws.socket.close();
  });
});
