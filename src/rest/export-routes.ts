import { Router, type Response } from 'express';
import type { Deps } from '../domain/deps.js';
import { EXPORT_KINDS, openExport } from '../domain/exports/export.js';
import { handle, Streamed } from './handle.js';

/** Starts the download; a reader that goes away before the end aborts the export (and its query). */
function download(res: Response, exp: Awaited<ReturnType<typeof openExport>>): Promise<void> {
  const stopped = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) stopped.abort();
  });
  res.status(200);
  res.setHeader('Content-Type', exp.contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${exp.filename}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  return exp.writeTo(res, stopped.signal);
}

/**
 * Exports (docs/dashboard.md "Exports"; docs/security.md "Exports (issue 20)"): `GET
 * /v1/exports/{payments,bank-messages,ledger}`, CSV or XLSX, streamed from a database cursor at the
 * pace the reader takes them.
 */
export function exportRoutes(deps: Deps): Router {
  const router = Router();
  for (const kind of EXPORT_KINDS) {
    router.get(
      `/exports/${kind}`,
      handle(deps, {
        auth: ['project', 'merchant', 'user'],
        run: async (actor, { query }) => {
          const exp = await openExport(deps, actor, kind, query);
          return new Streamed((res) => download(res, exp));
        },
      }),
    );
  }
  return router;
}
