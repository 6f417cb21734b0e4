import express, { Router } from 'express';
import type { Actor } from '../domain/auth/actor.js';
import type { Deps } from '../domain/deps.js';
import { authenticateHook } from '../domain/devices/hooks.js';
import { receiveBackfillFromDevice, receiveFromDevice } from '../flows/device-intake.js';
import { heartbeat } from '../domain/devices/seen.js';
import { looseTelemetry, parseTelemetry } from '../domain/devices/telemetry.js';
import { AppError } from '../errors.js';
import { refuseRepeatedKeys } from '../http/strict-json.js';
import { BODY_LIMIT, bodyReader, handle, RawJson, type BodyReader } from './handle.js';

/** A backfill of BATCH_MAX Persian SMS is far above the usual 64 KiB. */
export const BATCH_BODY_LIMIT = '1mb';

const accepted = (result: unknown) => new RawJson(202, JSON.stringify(result));

const forwarded = async (deps: Deps, device: Actor, body: unknown) => {
  const result = await receiveFromDevice(deps, device, body);
  return result === null ? undefined : accepted(result);
};

const batch = async (deps: Deps, device: Actor, body: unknown) => accepted(await receiveBackfillFromDevice(deps, device, body));

/** The text of a JSON body as body-parser decoded it, kept by its `verify` hook for the repeated-key check. */
const jsonText = new WeakMap<object, string>();

function decoded(buf: Buffer, charset: string): string {
  // The scan must read the text exactly as body-parser does; JSON between systems is UTF-8 (RFC 8259
  // §8.1), and a UTF-16 body decoded by another rule than body-parser's could hide a repeat from it.
  if (charset !== 'utf-8') throw new AppError('unsupported_media_type', 'A JSON body on the device routes must be UTF-8.');
  return new TextDecoder('utf-8').decode(buf);
}

/**
 * JSON that names each key once in every object (docs/security.md, "repeated keys"): parsed by
 * body-parser as before, then its text is scanned; a repeat is 400 `invalid_json` (`details.key`)
 * before anything is stored.
 */
function strictJson(limit: string): BodyReader {
  const read = bodyReader(
    express.json({ limit, type: () => true, strict: false, verify: (req, _res, buf, charset) => void jsonText.set(req, decoded(buf, charset)) }),
  );
  return async (req, res) => {
    await read(req, res);
    const text = jsonText.get(req);
    if (text !== undefined) refuseRepeatedKeys(text);
  };
}

/**
 * A hook heartbeat's body (any text a monitor sends): a JSON object or a form is kept for its
 * telemetry (docs/forwarders.md "Phone health"), anything else is dropped unread; JSON repeating a
 * key is refused.
 */
function ignoredBody(limit: string): BodyReader {
  const raw = bodyReader(express.raw({ limit, type: () => true }));
  return async (req, res) => {
    await raw(req, res);
    const text = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    req.body = {};
    if (isJson(text)) {
      refuseRepeatedKeys(text);
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) req.body = parsed;
    } else if (req.is('application/x-www-form-urlencoded')) {
      req.body = Object.fromEntries(new URLSearchParams(text));
    }
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The body of a device route, read by handle() once the caller is known (401/403 before 413 and
 * 400) in place of its JSON-only, 64 KiB reader: a forwarder may post a form, a backfill batch is
 * larger, and a hook heartbeat's body is read and dropped, refused only when it is JSON that repeats a key.
 */
function deviceBody(limit: string, body: 'sms' | 'ignored' = 'sms'): BodyReader {
  if (body === 'ignored') return ignoredBody(limit);
  const form = bodyReader(express.urlencoded({ extended: false, limit }));
  const json = strictJson(limit);
  return (req, res) => (req.is('application/x-www-form-urlencoded') ? form : json)(req, res);
}

export function deviceRoutes(deps: Deps): Router {
  const router = Router();
  // Hook routes: the secret in the path is the credential; a forwarder's Authorization header is
  // not required (when present it is checked as on any public route).
  const hook = { auth: ['public', 'device'] as ('public' | 'device')[], hookDevice: (params: Record<string, string>) => authenticateHook(deps, params.secret) };

  router.post('/device/heartbeat', handle(deps, { auth: ['device'], readBody: strictJson(BODY_LIMIT), run: (actor, { body }) => heartbeat(deps, actor, () => parseTelemetry(body)) }));
  router.post('/device/messages', handle(deps, { auth: ['device'], readBody: deviceBody(BODY_LIMIT), run: (actor, { body }) => forwarded(deps, actor, body) }));
  router.post('/device/messages/batch', handle(deps, { auth: ['device'], readBody: deviceBody(BATCH_BODY_LIMIT), run: (actor, { body }) => batch(deps, actor, body) }));
  router.post('/device/hooks/:secret', handle(deps, { ...hook, readBody: deviceBody(BODY_LIMIT), run: (_a, { hook: device, body }) => forwarded(deps, device, body) }));
  router.post(
    '/device/hooks/:secret/batch',
    handle(deps, { ...hook, readBody: deviceBody(BATCH_BODY_LIMIT), run: (_a, { hook: device, body }) => batch(deps, device, body) }),
  );
  router.post(
    '/device/hooks/:secret/heartbeat',
    handle(deps, { ...hook, readBody: deviceBody(BODY_LIMIT, 'ignored'), run: (_a, { hook: device, body }) => heartbeat(deps, device, () => looseTelemetry(isObject(body) ? body : {})) }),
  );
  return router;
}
