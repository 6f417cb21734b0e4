import { Router } from 'express';
import { pendingMigrations } from '../db/migrate.js';
import type { Deps } from '../domain/deps.js';
import { AppError, errorBody } from '../errors.js';

/** `/healthz`: the process answers. `/readyz`: the database answers and is fully migrated. */
export function healthRoutes(deps: Deps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      await deps.prisma.$queryRaw`select 1`;
      const pending = await pendingMigrations((sql) => deps.prisma.$queryRawUnsafe(sql));
      if (pending.length > 0) {
        res.status(503).json(errorBody(new AppError('unavailable', 'Database migrations are pending.', { pending })));
        return;
      }
      res.json({ status: 'ready', database: 'ok', migrations: 'applied' });
    } catch (err) {
      deps.log.warn({ err }, 'readiness check failed');
      res.status(503).json(errorBody(new AppError('unavailable', 'The database is not reachable.')));
    }
  });
  return router;
}
