import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lowercase hex HMAC-SHA256 over `${t}.${rawBody}`, keyed with the secret string's UTF-8 bytes. */
export function signPayload(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/** `t=<unix seconds>,v1=<sig>[,v1=<sig with the previous secret>]` (both during a rotation). */
export function signatureHeader(secrets: string[], timestamp: number, rawBody: string): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${signPayload(s, timestamp, rawBody)}`)].join(',');
}

/**
 * What a receiver does (and what our docs show): parse the header, refuse timestamps older than the
 * tolerance, and accept when any v1 matches, compared in constant time.
 */
export function verifySignature(header: string, rawBody: string, secret: string, toleranceSeconds = 300, nowMs = Date.now()): boolean {
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signPayload(secret, t, rawBody), 'hex');
  return parts
    .filter(([k, v]) => k === 'v1' && v && /^[0-9a-f]{64}$/.test(v))
    .some(([, v]) => timingSafeEqual(Buffer.from(v!, 'hex'), expected));
}
