import type { Request } from 'express';
import { Answer, keyedRequest, type Idempotent, type KeyedRequest } from '../domain/payments/idempotency.js';
import { jsonText } from '../http/json.js';
import { RawJson } from './handle.js';

/**
 * The `Idempotency-Key` of a REST `POST` that changes state (docs/integration.md "Idempotency"), as the
 * domain's keyed request: the route's pattern and its target name the operation, so the same key on
 * another route or another payment is a conflict, never the other request's answer.
 */
export function restKey(headers: Request['headers'], route: string, target: string | null, body: unknown): KeyedRequest | undefined {
  const header = headers['idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return keyedRequest(key, 'Idempotency-Key', target === null ? `POST /v1${route}` : `POST /v1${route} ${target}`, body);
}

/** The REST rendering of a result: its status and the exact bytes a replay repeats. */
export const jsonAnswer = (status: number, value: unknown) => new Answer(status, jsonText(value));

/**
 * Runs a route's domain call with the request's key (when sent) and answers the JSON the route
 * renders: this call's, or the first call's replayed byte for byte, status included.
 */
export async function keyedRoute<T>(keyed: KeyedRequest | undefined, render: (result: T) => Answer, run: (idem: Idempotent<T> | undefined) => Promise<T | Answer>): Promise<RawJson> {
  const out = await run(keyed && { ...keyed, render });
  const answer = out instanceof Answer ? out : render(out);
  return new RawJson(answer.status, answer.body);
}
