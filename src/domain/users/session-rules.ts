import { randomBytes } from 'node:crypto';
import { hashCredential } from '../auth/credentials.js';

/** A session ends 12 h after its last request, and 7 days after sign-in whatever the activity. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** `last_seen_at` is stamped at most this often: one write a minute per active session, not per request. */
export const SESSION_TOUCH_MS = 60 * 1000;
/** A browser where a user signed in stays a trusted device for 180 days after its last sign-in there. */
export const TRUSTED_DEVICE_MS = 180 * 24 * 60 * 60 * 1000;
/** A set-password link works once, for 24 h. */
export const SET_PASSWORD_TTL_MS = 24 * 60 * 60 * 1000;

/** 256 random bits as 43 URL-safe characters: a session or device cookie, or a set-password token. */
export function newSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashCredential(token) };
}

/** Tokens we issue; anything else is not looked up. */
export const SECRET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** When a session stops working if nothing else happens: idle expiry or its absolute end. */
export function sessionEndsAt(s: { lastSeenAt: Date; expiresAt: Date }): Date {
  const idle = new Date(s.lastSeenAt.getTime() + SESSION_IDLE_MS);
  return idle < s.expiresAt ? idle : s.expiresAt;
}

/** The page of the dashboard that takes a set-password token. */
export function setPasswordUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/dashboard/set-password?token=${token}`;
}
