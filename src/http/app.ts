import { randomUUID } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Deps } from '../domain/deps.js';
import { sseSubscriptions } from '../graphql/sse.js';
import type { Yoga } from '../graphql/yoga.js';
import { jsonReplacer } from './json.js';
import { BODY_LIMIT } from '../rest/handle.js';
import { restRouter } from '../rest/router.js';
import { checkoutPageRoutes } from './checkout-page.js';
import { compressText } from './compress.js';
import { faviconRoute } from './favicon.js';
import { linkPageRoutes } from './link-page.js';
import { docsPageRoutes } from './docs-page.js';
import { cors } from './cors.js';
import { dashboardRoutes } from './dashboard.js';
import { errorMiddleware, notFoundMiddleware } from './errors.js';
import { healthRoutes } from './health.js';
import { serializeRequest } from './log-redaction.js';
import { answerLevel } from '../logger.js';
import { createMetrics } from './metrics.js';
import { openApiDocument } from '../rest/openapi.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** pino-http's response serializer (given pino's own view of it): the session cookie's value is left out. */
function serializeResponse(res: { statusCode: number | null; headers?: Record<string, unknown> }) {
  const headers = { ...res.headers };
  if (headers['set-cookie'] !== undefined) headers['set-cookie'] = '[redacted]';
  return { statusCode: res.statusCode, headers };
}

// GraphQL bodies are read here, capped like REST, and handed to Yoga as bytes (it parses them):
// a body over 64 KiB is 413 before Yoga reads anything. Every method that may carry a body comes
// through here, so Yoga's own cap (a TransformStream and a stream pipeline per request) is off.
const readGraphQLBody = express.raw({ type: () => true, limit: BODY_LIMIT });

function graphqlHandler(yoga: Yoga, sse: RequestHandler): RequestHandler[] {
  return [
    (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? next() : readGraphQLBody(req, res, next)),
    sse,
    (req, res, next) => {
      Promise.resolve(yoga(req, res)).catch(next);
    },
  ];
}

export function createApp(deps: Deps, yoga: Yoga): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('json replacer', jsonReplacer);
  if (deps.config.trustProxy) app.set('trust proxy', deps.config.trustProxy);

  app.use(
    pinoHttp({
      logger: deps.log,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // URLs carry payment tokens (/pay/{token}, /v1/checkout/{token}, GraphQL GET variables).
      // Set-Cookie carries a new dashboard session's token: logged as redacted, like Cookie.
      serializers: { req: serializeRequest, res: serializeResponse },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
      customLogLevel: (_req, res, err) => (err ? 'error' : answerLevel(res.statusCode)),
      // For any 5xx pino-http makes up an Error whose stack is its own; a real failure was already
      // logged with its stack by the translator, and a 503 (no_card_available) is an answer.
      customErrorObject: (_req, _res, _err, { err: _made, ...line }: Record<string, unknown>) => line,
      customErrorMessage: (_req, res) => (res.statusCode === 500 ? 'request errored' : 'request completed'),
    }),
  );

  app.use(cors);
  app.use(compressText);
  const metrics = createMetrics();
  const sse = sseSubscriptions(deps, yoga);
  metrics.observe('gateway_sse_streams_open', 'Subscriptions open over server-sent events in this process', sse.open);
  app.use(metrics.measure);
  // The API first: its paths share no prefix with the routes below, and the hot paths then pass no
  // other router on their way.
  app.use('/v1', restRouter(deps));
  app.use(healthRoutes(deps));
  app.use(metrics.routes(deps));
  const openapi = openApiDocument(deps.config.publicBaseUrl);
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use(docsPageRoutes());
  app.use(yoga.graphqlEndpoint, ...graphqlHandler(yoga, sse.handler));
  app.get('/favicon.ico', faviconRoute());
  app.use(checkoutPageRoutes(deps));
  app.use(linkPageRoutes(deps));
  app.use(dashboardRoutes());
  app.use(notFoundMiddleware);
  app.use(errorMiddleware(deps.log));
  return app;
}
