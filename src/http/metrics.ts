import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Router } from 'express';
import { Router as makeRouter } from 'express';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Deps } from '../domain/deps.js';
import { AppError } from '../errors.js';
import { sendError } from './errors.js';

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Prometheus metrics of this process: the runtime's defaults and every HTTP request by route. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  // Label by the matched route pattern, never the raw path (ids and tokens would explode cardinality).
  const measure: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      const route = (res.locals.routePattern as string | undefined) ?? (req.route?.path ? String(req.route.path) : req.baseUrl || 'unmatched');
      end({ method: req.method, route });
      requests.inc({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };

  const routes = (deps: Deps): Router => {
    const router = makeRouter();
    router.get('/metrics', async (req, res) => {
      const token = deps.config.metricsToken;
      // Production without a token: as if there were no such route. Elsewhere it stays open for dev.
      if (!token && deps.config.nodeEnv === 'production') {
        sendError(res, new AppError('not_found', `No route for ${req.method} ${req.path}.`));
        return;
      }
      if (token && !sameSecret(req.headers.authorization ?? '', `Bearer ${token}`)) {
        sendError(res, new AppError('unauthorized', 'A valid credential is required: Authorization: Bearer $METRICS_TOKEN.'));
        return;
      }
      res.type(registry.contentType).send(await registry.metrics());
    });
    return router;
  };
  return { measure, routes };
}
