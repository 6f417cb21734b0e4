import WebSocket from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createTestDatabase, request, startTestApp, testEnv } from '../support/harness.js';
import { runTs } from '../support/process.js';
import { clearOfWindowEdge } from '../support/rate-window.js';

/**
 * TRUST_PROXY takes Express's values (docs/operations.md). What it changes is who the client is, and
 * the per-address public rate limit is where that shows over HTTP: with a limit of 2 a minute, the
 * third anonymous GraphQL request from one client is 429, and a request from another client passes.
 * Each check uses addresses of its own (the limit is counted in the shared database).
 */
const LIMIT = '2';
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});

/** An anonymous GraphQL request whose X-Forwarded-For is `chain` (none when null): its status. */
async function statusFrom(baseUrl: string, chain: string | null): Promise<number> {
  const headers: Record<string, string> = chain === null ? {} : { 'x-forwarded-for': chain };
  return (await request(baseUrl, 'POST', '/graphql', { body: { query: '{ __typename }' }, headers })).status;
}

/**
 * `spent` is refused once the limit is used up; `same` (another chain the client is read from the
 * same entry of) is refused with it; `other` (the entry the client is read from differs) passes.
 */
async function expectClientReadFrom(baseUrl: string, chains: { spent: string; same: string; other: string }) {
  await clearOfWindowEdge(15_000);
  expect(await statusFrom(baseUrl, chains.spent)).toBe(200);
  expect(await statusFrom(baseUrl, chains.spent)).toBe(200);
  expect(await statusFrom(baseUrl, chains.spent)).toBe(429);
  expect(await statusFrom(baseUrl, chains.same)).toBe(429);
  expect(await statusFrom(baseUrl, chains.other)).toBe(200);
}

/** The service started in this process with `env` (the HTTP behaviour of a value needs no process of its own). */
async function withApp(env: Record<string, string>, check: (baseUrl: string) => Promise<void>, own: { databaseUrl?: string } = { databaseUrl }) {
  const app = await startTestApp({ role: 'api', ...own, env: { ...env, PUBLIC_RATE_LIMIT_PER_MINUTE: LIMIT } });
  try {
    await check(app.baseUrl);
  } finally {
    await app.stop();
  }
}

describe('TRUST_PROXY at start-up', { timeout: 120_000 }, () => {
  it('an invalid value stops the start with one line naming TRUST_PROXY, no stack', async () => {
    const res = await runTs('src/main.ts', ['--role', 'api'], testEnv(databaseUrl, { TRUST_PROXY: '10.0.0.0/33' }));
    expect(res.code).not.toBe(0);
    const lines = res.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid environment: TRUST_PROXY: /);
    expect(res.stdout).not.toMatch(/listening/);
  });
});

describe('TRUST_PROXY values refused', () => {
  it.each(['bogus', 'loopback,', 'yes', '-1', '1.2.3.4.5', '1,', 'loopback;linklocal', '2001:db8::/129'])('%s: one line naming TRUST_PROXY', (bad) => {
    expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/^Invalid environment: TRUST_PROXY: [^\n]+$/);
  });
});

// Each check starts the service with its value and uses addresses of its own, so the checks run at once.
describe.concurrent('TRUST_PROXY: each form Express accepts', { timeout: 120_000 }, () => {
  it('true (Express’s own value) reads the client from the leftmost X-Forwarded-For entry', async () => {
    await withApp({ TRUST_PROXY: 'true' }, (base) =>
      expectClientReadFrom(base, { spent: '198.51.100.1, 203.0.113.1', same: '198.51.100.1, 203.0.113.2', other: '198.51.100.2, 203.0.113.1' }),
    );
  });

  it('a hop count trusts that many proxies from the socket inward', async () => {
    // One hop (this test, on loopback) is trusted: the client is the entry it appended, the last one.
    await withApp({ TRUST_PROXY: '1' }, (base) =>
      expectClientReadFrom(base, { spent: '198.51.100.11, 203.0.113.11', same: '198.51.100.12, 203.0.113.11', other: '198.51.100.11, 203.0.113.12' }),
    );
  });

  // The client is 127.0.0.1 to the service; each form below trusts it (and nothing in the chain).
  const trusting = ['loopback', '127.0.0.1', '127.0.0.0/8, ::1/128', 'loopback, linklocal, uniquelocal', '2'];

  it.each(trusting.map((form, i) => [form, i] as const))('%s', async (form, i) => {
    const a = (n: number) => `198.51.100.${100 + i * 10 + n}`;
    const b = (n: number) => `203.0.113.${100 + i * 10 + n}`;
    await withApp({ TRUST_PROXY: form }, (base) =>
      form === '2'
        ? // Two hops: this test's socket and the proxy that wrote the last entry; the client wrote the one before.
          expectClientReadFrom(base, { spent: `${a(1)}, ${b(1)}`, same: `${a(1)}, ${b(2)}`, other: `${a(2)}, ${b(1)}` })
        : // The last entry is not a trusted proxy: it is the client.
          expectClientReadFrom(base, { spent: `${a(1)}, ${b(1)}`, same: `${a(2)}, ${b(1)}`, other: `${a(1)}, ${b(2)}` }),
    );
  });

  it.each([['false', { TRUST_PROXY: 'false' }], ['unset', {}]] as [string, Record<string, string>][])('%s trusts no proxy: X-Forwarded-For is ignored', async (_name, env) => {
    // A database of its own: every request here counts as 127.0.0.1's.
    await withApp(env, async (base) => {
      await clearOfWindowEdge(15_000);
      expect(await statusFrom(base, '198.51.100.201')).toBe(200);
      expect(await statusFrom(base, '198.51.100.202')).toBe(200);
      expect(await statusFrom(base, '198.51.100.203')).toBe(429);
      expect(await statusFrom(base, null)).toBe(429);
    }, {});
  });

  it('a WebSocket subscription reads its client as HTTP does', async () => {
    await withApp({ TRUST_PROXY: 'loopback' }, async (base) => {
      await clearOfWindowEdge(15_000);
      const spent = '198.51.100.250';
      expect(await statusFrom(base, spent)).toBe(200);
      expect(await statusFrom(base, spent)).toBe(200);
      expect(await wsOperationCode(base, spent)).toBe('rate_limited');
      expect(await wsOperationCode(base, '198.51.100.251')).toBe('ok');
    });
  });
});

/** One anonymous `{ __typename }` over graphql-transport-ws from `forwardedFor`: 'ok', or its error's code. */
async function wsOperationCode(baseUrl: string, forwardedFor: string): Promise<string> {
  const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: { 'x-forwarded-for': forwardedFor } });
  try {
    return await new Promise<string>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string; payload?: any };
        if (message.type === 'connection_ack') socket.send(JSON.stringify({ type: 'subscribe', id: '1', payload: { query: '{ __typename }' } }));
        else if (message.type === 'next') resolve(message.payload.errors?.[0]?.extensions?.code ?? 'ok');
        else if (message.type === 'error') resolve(message.payload[0]?.extensions?.code ?? 'error');
      });
    });
  } finally {
    socket.close();
  }
}
