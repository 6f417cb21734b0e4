import express, { Router, type RequestHandler } from 'express';
import { authenticate } from '../domain/auth/authenticate.js';
import type { Actor } from '../domain/auth/actor.js';
import type { Deps } from '../domain/deps.js';
import { authenticateHook } from '../domain/devices/hooks.js';
import { receiveBackfillFromDevice, receiveFromDevice } from '../flows/device-intake.js';
import { markSeen } from '../domain/devices/seen.js';
import { BODY_LIMIT, handle, RawJson } from './handle.js';

/** A backfill of BATCH_MAX Persian SMS is far above the usual 64 KiB. */
export const BATCH_BODY_LIMIT = '1mb';

const accepted = (result: unknown) => new RawJson(202, JSON.stringify(result));

const forwarded = async (deps: Deps, device: Actor, body: unknown) => {
  const result = await receiveFromDevice(deps, device, body);
  return result === null ? undefined : accepted(result);
};

const batch = async (deps: Deps, device: Actor, body: unknown) => accepted(await receiveBackfillFromDevice(deps, device, body));

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
