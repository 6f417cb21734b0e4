import type { RequestHandler } from 'express';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, Idempotency-Key, X-Request-Id';
const HEADER_LIST = /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/;

/**
 * CORS on every path: any origin, and never credentials — every credential is a bearer token a
 * script must hold itself, so a browser's cookies must never ride along. Preflights (any OPTIONS)
 * end here with 204, so no route ever answers OPTIONS with a non-envelope body.
 */
export const cors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id, Allow');
  if (req.method !== 'OPTIONS') {
    next();
    return;
  }
  const requested = req.headers['access-control-request-headers'];
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', typeof requested === 'string' && HEADER_LIST.test(requested) ? requested : ALLOWED_HEADERS);
  res.setHeader('Access-Control-Max-Age', '600');
  res.setHeader('Allow', 'GET, POST, OPTIONS');
  res.status(204).end();
};
