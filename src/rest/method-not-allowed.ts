import { Router } from 'express';
import { AppError } from '../errors.js';
import { openApiDocument } from './openapi.js';

type PathItem = Record<string, unknown>;

/**
 * After every route: a known path asked with a method it does not serve answers 405 with `Allow`,
 * taken from the OpenAPI document (the one list of routes), instead of a 404.
 */
export function methodNotAllowedRoutes(publicBaseUrl: string): Router {
  const router = Router();
  const paths = openApiDocument(publicBaseUrl).paths as Record<string, PathItem>;
  for (const [path, item] of Object.entries(paths)) {
    const allow = Object.keys(item).map((m) => m.toUpperCase());
    if (allow.includes('GET')) allow.push('HEAD');
    allow.push('OPTIONS');
    const expressPath = path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
    router.all(expressPath, (req, _res, next) => {
      next(new AppError('method_not_allowed', `${req.method} is not allowed here; use ${allow.join(', ')}.`, { allow }));
    });
  }
  return router;
}
