import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

export type SendResult = {
  status: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
  retryAfter: string | null;
};

const TIMEOUT_MS = 10_000;
const EXCERPT_BYTES = 500;

/**
 * POSTs one webhook. Addresses are checked when the socket connects, after DNS resolution, so a
 * name that resolves (or rebinds) to loopback, private, link-local, CGNAT, unique-local,
 * unspecified or IPv4-mapped forms of those is refused unless private targets are allowed.
 * Redirects are not followed. `lookup` is injectable so tests can resolve names without DNS.
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
  const url = new URL(opts.url);
  const filter = { allowPrivateIPAddress: opts.allowPrivate, allowMetaIPAddress: opts.allowPrivate };
  const agent = url.protocol === 'https:' ? new RequestFilteringHttpsAgent({ ...filter, keepAlive: false }) : new RequestFilteringHttpAgent({ ...filter, keepAlive: false });
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    const done = (r: Omit<SendResult, 'durationMs'>) => resolve({ ...r, durationMs: Date.now() - started });
    const req = client.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
        ...(opts.lookup ? { lookup: opts.lookup } : {}),
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
          done({
            status: res.statusCode ?? null,
            excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
            error: null,
            retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
          }),
        );
        res.on('error', (err) => done({ status: res.statusCode ?? null, excerpt: null, error: err.message, retryAfter: null }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no response within ${(opts.timeoutMs ?? TIMEOUT_MS) / 1000} s`)));
    req.on('error', (err) => done({ status: null, excerpt: null, error: err.message, retryAfter: null }));
    req.end(opts.body);
  });
}
