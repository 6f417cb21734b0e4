import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { requireActor, unauthorizedFor, type Actor, type ActorKind, type ActorOf } from '../domain/auth/actor.js';
import { authenticate } from '../domain/auth/authenticate.js';
import type { Deps } from '../domain/deps.js';
import { isAppError } from '../errors.js';
import { limitBucket } from '../domain/rate-limits.js';
import { parseInput } from '../domain/validation.js';

export const BODY_LIMIT = '64kb';
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

// Every body is read as JSON whatever its Content-Type; a body that is not JSON is 400 invalid_json.
const parseJson = express.json({ limit: BODY_LIMIT, type: () => true, strict: false });

function readBody(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => parseJson(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
}

/** A response body already serialised by the domain (idempotent replays must match byte for byte). */
export class RawJson {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {}
}

type RouteInput<Q extends z.ZodType | undefined> = {
  deps: Deps;
  params: Record<string, string>;
  body: unknown;
  query: Q extends z.ZodType ? z.output<Q> : Request['query'];
  headers: Request['headers'];
  ip: string | undefined;
};

type RouteSpec<K extends ActorKind, Q extends z.ZodType | undefined> = {
  auth: K[];
  query?: Q;
  status?: number;
  run: (actor: ActorOf<K>, input: RouteInput<Q>) => Promise<unknown>;
};

/**
 * The one REST wrapper: auth → body → query validation → domain call → JSON. A route that returns
 * undefined answers 204. Errors go to the error middleware, which renders the envelope.
 */
export function handle<K extends ActorKind, Q extends z.ZodType | undefined = undefined>(
  deps: Deps,
  spec: RouteSpec<K, Q>,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    // The matched pattern (not the path, which carries ids and tokens), for metrics.
    res.locals.routePattern = `${req.baseUrl}${String(req.route?.path ?? '')}`;
    try {
      const authenticated: Actor = await authenticate(deps, req.headers.authorization).catch((err: unknown) => {
        // A missing, unknown or revoked credential is told which kind this route takes.
        throw isAppError(err) && err.code === 'unauthorized' ? unauthorizedFor(spec.auth) : err;
      });
      const actor: Actor = authenticated.kind === 'public' ? { kind: 'public', ip: req.ip } : authenticated;
      const allowed = requireActor(actor, ...spec.auth);
      const bucket = limitBucket(actor, req.ip);
      if (bucket) await deps.limits?.consume(bucket.kind, bucket.key);
      // The body is read only once the caller is known: 401/403 win over 413 and 400.
      if (!BODYLESS_METHODS.has(req.method)) await readBody(req, res);
      const query = (spec.query ? parseInput(spec.query, req.query) : req.query) as RouteInput<Q>['query'];
      const result = await spec.run(allowed, {
        deps,
        params: req.params as Record<string, string>,
        body: req.body,
        query,
        headers: req.headers,
        ip: req.ip,
      });
      if (result === undefined) res.status(204).end();
      else if (result instanceof RawJson) res.status(result.status).type('application/json').send(result.body);
      else res.status(spec.status ?? 200).json(result);
    } catch (err) {
      next(err);
    }
  };
}
