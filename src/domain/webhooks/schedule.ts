/** Retry intervals after the first attempt (docs/webhooks.md "Delivery rules"), in seconds: 10 retries at most. */
export const RETRY_INTERVALS_S = [30, 60, 120, 300, 600, 1800, 3600, 7200, 14400, 28800] as const;

export const MAX_RETRIES = RETRY_INTERVALS_S.length;

const MAX_RETRY_AFTER_S = 8 * 60 * 60;
const JITTER = 0.1;

/**
 * Delay before retry number `retry` (1-based), or null when retries are used up. The interval is
 * scaled, jittered by ±10 %, and replaced by a longer `Retry-After` (capped at 8 h, also scaled).
 */
export function retryDelayMs(retry: number, scale: number, retryAfterSeconds: number | null, random = Math.random()): number | null {
  const base = RETRY_INTERVALS_S[retry - 1];
  if (base === undefined) return null;
  const jittered = base * (1 + JITTER * (2 * random - 1));
  const asked = retryAfterSeconds !== null && retryAfterSeconds > 0 ? Math.min(retryAfterSeconds, MAX_RETRY_AFTER_S) : 0;
  return Math.round(Math.max(jittered, asked > base ? asked : 0) * scale * 1000);
}

/** `Retry-After` as seconds, from either of its forms (delta-seconds or an HTTP date). */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.round((at - nowMs) / 1000));
}
