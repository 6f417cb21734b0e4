import { WebhookSignatureError } from './errors.js';
import type { WebhookEvent } from './types.js';

export type VerifyWebhookOptions = {
  /** How far the signature's timestamp may be from now, either way (default 300 s). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (tests). */
  now?: number;
};

const encoder = new TextEncoder();
const HEX64 = /^[0-9a-f]{64}$/;

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Checks a webhook delivery and returns its parsed body.
 *
 * `rawBody` is the request body exactly as received (a string, or its bytes): never a re-serialised
 * object. `signatureHeader` is `X-Service-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "t.rawBody">`, with a second `v1` for 24 h after a secret rotation (either may match). The
 * timestamp and then the signature are checked before the body is parsed; the HMAC is compared
 * by Web Crypto's `verify`, in constant time. Throws `WebhookSignatureError` when the header is
 * missing or malformed, the timestamp is more than `toleranceSeconds` away, or no signature
 * matches. Uses only the Web Crypto API (Node 20+, Deno, Bun, browsers, edge runtimes).
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const tolerance = options.toleranceSeconds ?? 300;
  if (!signatureHeader) throw new WebhookSignatureError('missing_header', 'The X-Service-Signature header is missing.');
  if (!secret) throw new TypeError('verifyWebhook needs the endpoint’s signing secret');

  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of signatureHeader.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') timestamp = value;
    // Other schemes (a future v2) are skipped, not refused: the header may carry them beside v1.
    else if (key === 'v1' && HEX64.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) {
    throw new WebhookSignatureError('malformed_header', 'The X-Service-Signature header has no timestamp or no v1 signature.');
  }
  const t = Number(timestamp);
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - t) > tolerance) {
    throw new WebhookSignatureError('timestamp_out_of_tolerance', `The signature's timestamp is more than ${tolerance} s from now.`);
  }

  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const signed = concat(encoder.encode(`${timestamp}.`), body);
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  let matched = false;
  for (const signature of signatures) {
    // Every candidate is checked (no early exit), each in constant time by the platform.
    if (await globalThis.crypto.subtle.verify('HMAC', key, hexToBytes(signature), signed)) matched = true;
  }
  if (!matched) throw new WebhookSignatureError('signature_mismatch', 'No signature in the header matches the body and the secret.');

  let event: unknown;
  try {
    event = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody));
  } catch {
    throw new WebhookSignatureError('invalid_body', 'The signed body is not JSON.');
  }
  if (typeof event !== 'object' || event === null || typeof (event as { event?: unknown }).event !== 'string') {
    throw new WebhookSignatureError('invalid_body', 'The signed body is not a webhook event.');
  }
  return event as WebhookEvent;
}
