import { Router, type RequestHandler } from 'express';

/**
 * The one place a `/v1` route is marked deprecated (docs/versioning.md): while a route is listed
 * here, every answer it gives carries `Deprecation` (RFC 9745: when it was deprecated, as
 * `@<unix seconds>`), `Sunset` (RFC 8594: the HTTP-date after which it may stop answering, at
 * least 12 months later) and a `Link` with `rel="deprecation"` to what replaces it. The OpenAPI
 * document marks the same operation `deprecated: true` (test/rest/deprecations.test.ts checks both).
 * Nothing is deprecated yet.
 */
export type DeprecatedRoute = {
  /** Upper-case HTTP method. */
  method: string;
  /** The OpenAPI path, relative to /v1: `/payments/{id}`. */
  path: string;
  deprecatedAt: Date;
  sunsetAt: Date;
  /** Where the change is explained (the changelog entry or the guide's section). */
  link: string;
};

export const DEPRECATED_ROUTES: readonly DeprecatedRoute[] = [];

/** The shortest time between a deprecation and its sunset (docs/versioning.md). */
export const MINIMUM_NOTICE_MONTHS = 12;

export function deprecationHeaderValues(route: DeprecatedRoute): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(route.deprecatedAt.getTime() / 1000)}`,
    Sunset: route.sunsetAt.toUTCString(),
    Link: `<${route.link}>; rel="deprecation"; type="text/html"`,
  };
}

/** Before the routes: sets the headers on every answer of a listed route, errors included. */
export function deprecationHeaders(routes: readonly DeprecatedRoute[] = DEPRECATED_ROUTES): Router {
  const router = Router();
  for (const route of routes) {
    const mark: RequestHandler = (req, res, next) => {
      if (req.method === route.method || (route.method === 'GET' && req.method === 'HEAD')) {
        for (const [name, value] of Object.entries(deprecationHeaderValues(route))) {
          res.append(name, value);
        }
      }
      next();
    };
    router.all(route.path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1'), mark);
  }
  return router;
}
