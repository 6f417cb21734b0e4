import { hash, randomBytes, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 (no modulo bias: randomInt rejects out-of-range draws). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

export type CredentialKind = 'merchant' | 'project' | 'device';

export const credentialPrefix = {
  merchant: 'mk_',
  projectLive: 'sk_live_',
  projectTest: 'sk_test_',
  device: 'dt_',
  webhookSecret: 'whsec_',
} as const;

const SECRET_LENGTH = 40; // 40 base62 chars ≈ 238 bits

export type IssuedSecret = { secret: string; hash: string; prefix: string };

/** Credentials are shown once and stored only as SHA-256; the prefix is kept to help people tell keys apart. */
export function issueCredential(prefix: string): IssuedSecret {
  const secret = prefix + randomBase62(SECRET_LENGTH);
  return { secret, hash: hashCredential(secret), prefix: secret.slice(0, prefix.length + 4) };
}

export function hashCredential(secret: string): string {
  // Node's one-shot digest: the same SHA-256 hex without a Hash object per request.
  return hash('sha256', secret, 'hex');
}

export function newWebhookSecret(): string {
  return credentialPrefix.webhookSecret + randomBase62(SECRET_LENGTH);
}

/** Which table a bearer token belongs to, judged by its prefix alone (no lookup for junk). */
export function classifyCredential(token: string): CredentialKind | undefined {
  if (!/^[A-Za-z0-9_]{8,128}$/.test(token)) return undefined;
  if (token.startsWith(credentialPrefix.merchant)) return 'merchant';
  if (token.startsWith(credentialPrefix.projectLive) || token.startsWith(credentialPrefix.projectTest)) return 'project';
  if (token.startsWith(credentialPrefix.device)) return 'device';
  return undefined;
}

/** 256 random bits as 43 URL-safe base64 characters. */
export function newPaymentToken(): string {
  return randomBytes(32).toString('base64url');
}
