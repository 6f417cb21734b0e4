import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicUnicast } from './address-policy.js';
import { describeSendError, NOT_ALLOWED } from './send-errors.js';

export type SendResult = {
  status: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
  retryAfter: string | null;
};

const TIMEOUT_MS = 10_000;
const EXCERPT_BYTES = 500;

class AddressNotAllowed extends Error {
  readonly code = 'ESERVICE_ADDRESS_NOT_ALLOWED';
}

/**
 * Resolves like `base` but fails when any address of the name is not public unicast: checked on
 * the very addresses the socket will use, so a name that rebinds to a private one cannot slip by.
 */
function guardedLookup(base: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '', 0);
      const addresses = (Array.isArray(found) ? found : [{ address: found, family: isIP(found) }]) as LookupAddress[];
      if (addresses.length === 0 || addresses.some((a) => !isPublicUnicast(a.address))) return callback(new AddressNotAllowed(NOT_ALLOWED), '', 0);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * POSTs one webhook. Unless private targets are allowed (dev/test), only globally routable unicast
 * addresses are connected to (see address-policy.ts): an IP literal is checked before connecting,
 * a name after resolution. Redirects are not followed. An attempt's error text names what went
 * wrong, never an address the name resolved to. `lookup` is injectable so tests need no DNS.
 */
export async function postWebhook(opts: {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivate: boolean;
  lookup?: LookupFunction;
  timeoutMs?: number;
}): Promise<SendResult> {
  const started = Date.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Date.now() - started });
  const url = new URL(opts.url);
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!opts.allowPrivate && isIP(literal) !== 0 && !isPublicUnicast(literal)) {
    return done({ status: null, excerpt: null, error: NOT_ALLOWED, retryAfter: null });
  }
  const base = opts.lookup ?? (dnsLookup as unknown as LookupFunction);
  const lookup = opts.allowPrivate ? base : guardedLookup(base);
  const client = url.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: false });
  return new Promise<SendResult>((resolve) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        agent,
        lookup,
        headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
        timeout: opts.timeoutMs ?? TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(c);
          size += c.length;
        });
        res.on('end', () =>
          resolve(
            done({
              status: res.statusCode ?? null,
              excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
              error: null,
              retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
            }),
          ),
        );
        res.on('error', (err) => resolve(done({ status: res.statusCode ?? null, excerpt: null, error: describeSendError(err), retryAfter: null })));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (err) => resolve(done({ status: null, excerpt: null, error: describeSendError(err, opts.timeoutMs ?? TIMEOUT_MS), retryAfter: null })));
    req.end(opts.body);
  });
}
