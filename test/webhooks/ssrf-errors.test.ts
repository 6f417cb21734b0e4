import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/domain/webhooks/http-sender.js';

/** A resolver standing in for DNS (these machines have none). */
function fakeDns(table: Record<string, string[]>): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const addresses = table[hostname];
    if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    const list = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (options?.all) return callback(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  }) as LookupFunction;
}

const send = (url: string, lookup?: LookupFunction, allowPrivate = false) => postWebhook({ url, body: '{}', headers: {}, allowPrivate, lookup, timeoutMs: 2000 });

describe('webhook attempt errors show no internal addresses', () => {
  it.each([
    ['a name resolving to a private address', 'http://hooks.example/x', { 'hooks.example': ['10.1.2.3'] }],
    ['a name with one public and one metadata address', 'http://hooks.example/x', { 'hooks.example': ['8.8.8.8', '169.254.169.254'] }],
    ['a NAT64 address', 'http://hooks.example/x', { 'hooks.example': ['64:ff9b:1::a00:1'] }],
  ])('refuses %s and names no address', async (_name, url, table) => {
    const result = await send(url, fakeDns(table));
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/not allowed/);
    for (const address of Object.values(table).flat()) expect(result.error).not.toContain(address);
    expect(result.error).not.toMatch(/\d+\.\d+\.\d+\.\d+|::/);
  });

  it.each(['http://[::a9fe:a9fe]/x', 'http://198.18.0.1/x', 'http://[fec0::1]/x', 'http://[64:ff9b:1::1]/x', 'http://[::ffff:127.0.0.1]:1/x'])(
    'refuses the literal %s before connecting',
    async (url) => {
      const result = await send(url);
      expect(result.error).toMatch(/not allowed/);
      expect(result.durationMs).toBeLessThan(1000);
    },
  );

  it('describes a refused connection without the address or port it tried', async () => {
    const result = await send('http://hooks.example:1/x', fakeDns({ 'hooks.example': ['127.0.0.1'] }), true);
    expect(result.status).toBeNull();
    expect(result.error).toBe('The connection was refused.');
  });

  it('describes an unknown name without echoing the resolver', async () => {
    const result = await send('http://nowhere.example/x', fakeDns({}));
    expect(result.error).toBe('The webhook host name does not resolve.');
  });
});
