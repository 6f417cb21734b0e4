import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { requireActor, unauthorizedFor, type Actor, type ActorKind, type ActorOf } from '../domain/auth/actor.js';
import { authenticate } from '../domain/auth/authenticate.js';
import type { Deps } from '../domain/deps.js';
import { sendJson, sendJsonText } from '../http/json.js';
import { restSession } from '../http/session-cookie.js';
import { isAppError } from '../errors.js';
import { limitBucket } from '../domain/rate-limits.js';
import { parseInput } from '../domain/validation.js';
import { mayReorderKeys, parseJsonInOrder } from '../ordered-json.js';

export const BODY_LIMIT = '64kb';
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

// The text of a body whose key order JSON.parse may change (src/ordered-json.ts), kept to read again.
const orderedText = new WeakMap<Request, string>();

// Every body is read as JSON whatever its Content-Type; a body that is not JSON is 400 invalid_json.
const parseJson = express.json({
  limit: BODY_LIMIT,
  type: () => true,
  strict: false,
  verify: (req, _res, buf, encoding) => {
    if (!Buffer.isEncoding(encoding)) return;
    // As body-parser reads it: a leading byte-order mark is not part of the JSON.
    const text = buf.toString(encoding).replace(/^\uFEFF/, '');
    if (mayReorderKeys(text)) orderedText.set(req as Request, text);
  },
});

/** Reads a request's body into `req.body`; a body-parser error (413, 400) rejects. */
export type BodyReader = (req: Request, res: Response) => Promise<void>;

/** An Express body-parser middleware as a `BodyReader`. */
export function bodyReader(parser: RequestHandler): BodyReader {
  return (req, res) => new Promise((resolve, reject) => parser(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
}

const parseBody = bodyReader(parseJson);

/** The body as JSON, its objects in the key order of its text (metadata is returned as sent). */
async function readJson(req: Request, res: Response): Promise<void> {
  await parseBody(req, res);
  const text = orderedText.get(req);
  if (text !== undefined) req.body = parseJsonInOrder(text);
}

/** A response body already serialised by the domain (idempotent replays must match byte for byte). */
export class RawJson {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {}
}

/** A body the route writes itself, streamed (exports): `send` sets its headers and ends the response. */
export class Streamed {
  constructor(readonly send: (res: Response) => Promise<void>) {}
}

type RouteInput<Q extends z.ZodType | undefined, H> = {
  deps: Deps;
  /** The device a hook route's path names (`hookDevice`); undefined on other routes. */
  hook: H;
  params: Record<string, string>;
  body: unknown;
  query: Q extends z.ZodType ? z.output<Q> : Request['query'];
  headers: Request['headers'];
  ip: string | undefined;
};

type RouteSpec<K extends ActorKind, Q extends z.ZodType | undefined, H> = {
  auth: K[];
  /**
   * A credential in the path (a device hook secret), checked before the Authorization header and
   * given to `run` as `input.hook`. The header still decides `auth` and the rate-limit bucket.
   */
  hookDevice?: (params: Record<string, string>) => Promise<H>;
  /**
   * Reads the body instead of the 64 KiB JSON reader (device intake: form bodies, backfill
   * batches). Like it, only once the caller is known; unlike it, before the rate limiter.
   */
  readBody?: BodyReader;
  query?: Q;
  status?: number;
  run: (actor: ActorOf<K>, input: RouteInput<Q, H>) => Promise<unknown>;
};

/**
 * The one REST wrapper: auth (each credential checked once) → rate limit → body → query validation
 * → domain call → JSON. A route that returns undefined answers 204. Errors go to the error
 * middleware, which renders the envelope.
 */
export function handle<K extends ActorKind, Q extends z.ZodType | undefined = undefined, H = undefined>(
  deps: Deps,
  spec: RouteSpec<K, Q, H>,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    // The matched pattern (not the path, which carries ids and tokens), for metrics.
    res.locals.routePattern = `${req.baseUrl}${String(req.route?.path ?? '')}`;
    try {
      const params = req.params as Record<string, string>;
      const hook = (spec.hookDevice ? await spec.hookDevice(params) : undefined) as H;
      const authenticated: Actor = await authenticate(deps, req.headers.authorization, restSession(deps.config, req.method, req.headers)).catch((err: unknown) => {
        // A missing, unknown or revoked credential is told which kind this route takes.
        throw isAppError(err) && err.code === 'unauthorized' ? unauthorizedFor(spec.auth) : err;
      });
      const actor: Actor = authenticated.kind === 'public' ? { kind: 'public', ip: req.ip } : authenticated;
      const allowed = requireActor(actor, ...spec.auth);
      // The body is read only once the caller is known: 401/403 win over 413 and 400.
      if (spec.readBody) await spec.readBody(req, res);
      const bucket = limitBucket(actor, req.ip);
      if (bucket) await deps.limits?.consume(bucket.kind, bucket.key);
      if (!spec.readBody && !BODYLESS_METHODS.has(req.method)) await readJson(req, res);
      const query = (spec.query ? parseInput(spec.query, req.query) : req.query) as RouteInput<Q, H>['query'];
      const result = await spec.run(allowed, {
        deps,
        hook,
        params,
        body: req.body,
        query,
        headers: req.headers,
        ip: req.ip,
      });
      if (result === undefined) res.status(204).end();
      else if (result instanceof RawJson) sendJsonText(res, result.status, result.body);
      else if (result instanceof Streamed) await result.send(res);
      else sendJson(res, spec.status ?? 200, result);
    } catch (err) {
      next(err);
    }
  };
}
