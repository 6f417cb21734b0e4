import express, { Router, type RequestHandler } from 'express';
import { authenticate } from '../domain/auth/authenticate.js';
import type { Actor } from '../domain/auth/actor.js';
import { receiveBankMessageBatch } from '../domain/bank-messages/batch.js';
import { receiveBankMessage } from '../domain/bank-messages/ingest.js';
import type { Deps } from '../domain/deps.js';
import { normaliseForwarderBody, type Forwarded } from '../domain/devices/forwarder-payloads.js';
import { authenticateHook } from '../domain/devices/hooks.js';
import { markSeen } from '../domain/devices/seen.js';
import { BODY_LIMIT, handle, RawJson } from './handle.js';

/** A backfill of BATCH_MAX Persian SMS is far above the usual 64 KiB. */
export const BATCH_BODY_LIMIT = '1mb';

const accepted = (result: unknown) => new RawJson(202, JSON.stringify(result));

/**
 * Every authenticated device request counts as the device being seen (domain/devices/seen.ts); the
 * stamp runs alongside the work, so it adds no wait to an SMS. `sms`: the request posts SMS. A
 * stamp that fails is logged, not answered: the SMS is stored and a 5xx would only make the app resend.
 */
async function seenWhile<T>(deps: Deps, device: Actor, sms: boolean, work: () => Promise<T>): Promise<T> {
  const seen = markSeen(deps, device, { sms }).catch((err: unknown) => deps.log.warn({ err }, 'device seen stamp failed'));
  const [, result] = await Promise.all([seen, work()]);
  return result;
}

function normalised(body: unknown): { input: Forwarded } | { error: unknown } {
  try {
    return { input: normaliseForwarderBody(body) };
  } catch (error) {
    return { error };
  }
}

/**
 * One SMS in our shape or any forwarder app's (forwarder-payloads.ts); a forwarder's batch event is
 * a backfill, a ping a heartbeat, and its other events get a 204 so the app does not retry them.
 * A body no app's schema accepts is still the device speaking: seen, then refused.
 */
async function forwarded(deps: Deps, device: Actor, body: unknown): Promise<RawJson | undefined> {
  const read = normalised(body);
  const sms = 'input' in read && (read.input.kind === 'single' || read.input.kind === 'batch');
  return seenWhile(deps, device, sms, async () => {
    if ('error' in read) throw read.error;
    const { input } = read;
    if (input.kind === 'single') return accepted(await receiveBankMessage(deps, device, input.message));
    if (input.kind === 'batch') return accepted(await receiveBankMessageBatch(deps, device, { messages: input.messages }));
    return undefined;
  });
}

const batch = async (deps: Deps, device: Actor, body: unknown) => seenWhile(deps, device, true, async () => accepted(await receiveBankMessageBatch(deps, device, body)));

/**
 * Reads the body before handle() where handle's JSON-only, 64 KiB reader would refuse it: a
 * form-encoded forwarder body, or a backfill batch. The caller is checked first, so 401/403 still
 * win over 413 and 400: a bad hook secret is answered here; a bad token is left for handle().
 */
function readDeviceBody(deps: Deps, via: 'token' | 'hook', limit: string, body: 'sms' | 'ignored' = 'sms'): RequestHandler {
  const form = express.urlencoded({ extended: false, limit });
  const json = express.json({ limit, type: () => true, strict: false });
  // A heartbeat app may send anything (or nothing); it is read and dropped, never refused.
  const raw = express.raw({ limit, type: () => true });
  return async (req, res, next) => {
    try {
      if (via === 'hook') await authenticateHook(deps, pathSecret(req.params.secret));
      else if ((await authenticate(deps, req.headers.authorization).catch(() => null))?.kind !== 'device') return next();
      if (body === 'ignored') return raw(req, res, (err?: unknown) => (err ? next(err) : ((req.body = {}), next())));
      (req.is('application/x-www-form-urlencoded') ? form : json)(req, res, next);
    } catch (err) {
      next(err);
    }
  };
}

const pathSecret = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function deviceRoutes(deps: Deps): Router {
  const router = Router();
  const viaToken = (limit: string) => readDeviceBody(deps, 'token', limit);
  const viaHook = (limit: string, body?: 'ignored') => readDeviceBody(deps, 'hook', limit, body);
  // Hook routes: the secret in the path is the credential (checked in readDeviceBody and again
  // here, where the actor is needed); a forwarder's stray Authorization header is not required.
  const hookDevice = (secret: unknown) => authenticateHook(deps, pathSecret(secret));

  router.post('/device/heartbeat', handle(deps, { auth: ['device'], run: (actor) => markSeen(deps, actor, { sms: false }) }));
  router.post('/device/messages', viaToken(BODY_LIMIT), handle(deps, { auth: ['device'], run: (actor, { body }) => forwarded(deps, actor, body) }));
  router.post(
    '/device/messages/batch',
    viaToken(BATCH_BODY_LIMIT),
    handle(deps, { auth: ['device'], run: (actor, { body }) => batch(deps, actor, body) }),
  );
  router.post(
    '/device/hooks/:secret',
    viaHook(BODY_LIMIT),
    handle(deps, { auth: ['public', 'device'], run: async (_a, { params, body }) => forwarded(deps, await hookDevice(params.secret), body) }),
  );
  router.post(
    '/device/hooks/:secret/batch',
    viaHook(BATCH_BODY_LIMIT),
    handle(deps, { auth: ['public', 'device'], run: async (_a, { params, body }) => batch(deps, await hookDevice(params.secret), body) }),
  );
  router.post(
    '/device/hooks/:secret/heartbeat',
    viaHook(BODY_LIMIT, 'ignored'),
    handle(deps, { auth: ['public', 'device'], run: async (_a, { params }) => markSeen(deps, await hookDevice(params.secret), { sms: false }) }),
  );
  return router;
}
