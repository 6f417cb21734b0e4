import type { Response } from 'express';

/** BigInt amounts leave as strings of digits; Dates as RFC 3339 UTC with milliseconds. */
export function jsonReplacer(_key: string, value: unknown) {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * An API answer as JSON. Stringified without a replacer first (V8's fast path: the records the
 * doors build hold amounts as strings already), with `jsonReplacer` only when a BigInt is in it.
 * Unlike `res.json`, no ETag is computed (a SHA-1 of every answer): API answers are not
 * revalidated (`Cache-Control` is not set on them, and no client sends If-None-Match to the API).
 */
export function sendJson(res: Response, status: number, value: unknown): void {
  sendJsonText(res, status, jsonText(value));
}

/** An answer's JSON text, as `sendJson` writes it (also what an idempotent route stores to replay). */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return JSON.stringify(value, jsonReplacer);
  }
}

/**
 * JSON already written (an idempotent replay's stored answer). With its Content-Length, as
 * `res.json` gave it (the compression middleware drops it when it compresses), not chunked.
 */
export function sendJsonText(res: Response, status: number, body: string): void {
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
