import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Every text response compressed (GraphiQL's page is ~9 MB raw). Server-sent events are left
 * alone: gzip buffers, and each event must reach the subscriber the moment it is written.
 */
function shouldCompress(req: Request, res: Response): boolean {
  if (String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream')) return false;
  return compression.filter(req, res);
}

const compress = compression({ filter: shouldCompress });

/**
 * A request that asks for an event stream is not even wrapped: the compression middleware hangs
 * its own closures on every response it sees, which an open checkout page would hold for as long
 * as it stays open.
 */
export const compressText: RequestHandler = (req, res, next) => {
  if (String(req.headers.accept ?? '').includes('text/event-stream')) return next();
  compress(req, res, next);
};
