import { Router } from 'express';
import { recordHeartbeat } from '../domain/devices/heartbeat.js';
import type { Deps } from '../domain/deps.js';
import { handle } from './handle.js';

export function deviceRoutes(deps: Deps): Router {
  const router = Router();
  router.post(
    '/device/heartbeat',
    handle(deps, { auth: ['device'], run: async (actor) => recordHeartbeat(deps, actor) }),
  );
  return router;
}
