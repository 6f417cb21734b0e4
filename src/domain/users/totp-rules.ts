import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { hashCredential } from '../auth/credentials.js';
import { latinDigits } from '../validation.js';

/**
 * Two-factor sign-in (docs/security.md "Signing in"): TOTP as RFC 6238 has it (SHA-1, 6 digits,
 * 30-second steps, a code of the step before or after is taken too, for clocks a little off),
 * computed by `otpauth`; and ten one-time recovery codes for a lost phone.
 */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
const WINDOW_STEPS = 1;
const SECRET_BYTES = 20;
export const RECOVERY_CODE_COUNT = 10;
// 10 characters of 32 (50 bits) each: too many to guess within the sign-in throttle.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

function totp(secretBase32: string, label?: { issuer: string; account: string }): TOTP {
  return new TOTP({
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    ...(label ? { issuer: label.issuer, label: label.account } : {}),
  });
}

/** A new secret (160 random bits, base32, as authenticator apps take it). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The `otpauth://totp/…` URL an authenticator app reads from the QR code. */
export function otpauthUrl(secretBase32: string, issuer: string, account: string): string {
  return totp(secretBase32, { issuer, account }).toString();
}

/**
 * The 30-second step a code belongs to, when it is the code of the step now or of the one before
 * or after; null otherwise. The caller accepts it only once: a step above the last one used.
 */
export function stepOfCode(secretBase32: string, code: string, now = Date.now()): number | null {
  const t = totp(secretBase32);
  const delta = t.validate({ token: code, timestamp: now, window: WINDOW_STEPS });
  return delta === null ? null : t.counter({ timestamp: now }) + delta;
}

/** What a user typed as the second factor: an authenticator's code, or a recovery code (by its hash). */
export type SecondFactor = { kind: 'code'; code: string } | { kind: 'recovery'; hash: string };

/**
 * Reads a typed second factor: Persian or Arabic digits, spaces and dashes are forgiven; six
 * digits are an authenticator code, ten letters and digits a recovery code; anything else is null.
 */
export function readSecondFactor(typed: string): SecondFactor | null {
  const text = normalised(typed);
  if (/^[0-9]{6}$/.test(text)) return { kind: 'code', code: text };
  if (text.length === RECOVERY_LENGTH && [...text].every((c) => RECOVERY_ALPHABET.includes(c))) return { kind: 'recovery', hash: hashCredential(text) };
  return null;
}

/** Ten new recovery codes as shown (`abcde-fghjk`), and the hashes that are stored. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: codes.map((c) => hashCredential(normalised(c))) };
}

function normalised(typed: string): string {
  return latinDigits(typed).replace(/[\s-]/g, '').toLowerCase();
}
