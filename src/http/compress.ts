import compression from 'compression';
import type { Request, Response } from 'express';

/**
 * Every text response compressed (GraphiQL's page is ~9 MB raw). Server-sent events are left
 * alone: gzip buffers, and each event must reach the subscriber the moment it is written.
 */
function shouldCompress(req: Request, res: Response): boolean {
  if (String(req.headers.accept ?? '').includes('text/event-stream')) return false;
  if (String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream')) return false;
  return compression.filter(req, res);
}

export const compressText = compression({ filter: shouldCompress });
