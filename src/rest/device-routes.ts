import { Router } from 'express';
import { receiveBankMessage } from '../domain/bank-messages/ingest.js';
import { recordHeartbeat } from '../domain/devices/heartbeat.js';
import type { Deps } from '../domain/deps.js';
import { handle, RawJson } from './handle.js';

export function deviceRoutes(deps: Deps): Router {
  const router = Router();
  router.post(
    '/device/heartbeat',
    handle(deps, { auth: ['device'], run: async (actor) => recordHeartbeat(deps, actor) }),
  );
  router.post(
    '/device/messages',
    handle(deps, {
      auth: ['device'],
      run: async (actor, { body }) => new RawJson(202, JSON.stringify(await receiveBankMessage(deps, actor, body))),
    }),
  );
  return router;
}
