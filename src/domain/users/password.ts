import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';

/**
 * Passwords: scrypt (memory-hard) from node:crypto, N = 2^15, r = 8, p = 1 (32 MiB per hash), a
 * 16-byte salt per user, compared in constant time. Stored as `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`
 * (base64url), so the cost can be raised later and old hashes still verify.
 */
const LOG2_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

export const PASSWORD_MIN_LENGTH = 10;
const PASSWORD_MAX_LENGTH = 1024;

/** A new password: 10 characters at least (Unicode characters, not bytes), 1,024 at most. */
export const newPasswordSchema = z
  .string()
  .refine((p) => [...p].length >= PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .refine((p) => p.length <= PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** A password as typed at sign-in: any length up to the cap (a short one simply does not match). */
export const typedPasswordSchema = z.string().min(1, 'is required').max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** log2N;
  // Node refuses more than 32 MiB by default; scrypt needs 128·N·r bytes, so allow twice that.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  // The same text typed on two keyboards (composed or decomposed letters) is one password.
  const text = password.normalize('NFC');
  return new Promise((resolve, reject) => scrypt(text, salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, LOG2_N, R, P);
  return ['scrypt', LOG2_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether `password` is the one `stored` was made from; a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = STORED.exec(stored);
  if (!m) return false;
  const [log2N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const expected = Buffer.from(m[5]!, 'base64url');
  const key = await derive(password, Buffer.from(m[4]!, 'base64url'), log2N, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// A hash no password has (its key is zeros): checked when the account does not exist or has no
// password yet, so that answer takes as long as a wrong password and says nothing more.
const NOBODY = `scrypt$${LOG2_N}$${R}$${P}$${Buffer.alloc(SALT_BYTES, 7).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;

/** Spends the time of one verification and answers false. */
export async function verifyNobody(password: string): Promise<false> {
  await verifyPassword(password, NOBODY);
  return false;
}
