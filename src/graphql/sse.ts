import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';
import type { Request, RequestHandler, Response } from 'express';
import type { Deps } from '../domain/deps.js';
import { KeepAlive } from '../events/keep-alive.js';
import { httpContext } from './context-factory.js';
import type { GraphQLContext } from './context.js';
import { forgetContext, handOverContext } from './context-handoff.js';
import { serializeEvent, SSE_COMMENT, SSE_COMPLETE, SSE_HEADERS, SSE_KEEP_ALIVE_MS } from './transport-plugins.js';
import type { Yoga } from './yoga.js';

/**
 * Subscriptions over server-sent events (GraphQL over SSE, distinct connections mode), written
 * straight onto Node's response, through Yoga's envelop so the same plugins apply (armor, masking,
 * catalog codes, introspection). Every open checkout page holds one of these for as long as it is
 * open: served by Yoga, each also held a Fetch-API Request, Response and ReadableStream with their
 * pipe into Node's response (27 KiB of heap and ~55 KiB of RSS per idle subscription in
 * `npm run bench -- subscriptions`); here it holds the Node request and response, its context and
 * its event iterator, as a graphql-ws subscription does.
 *
 * Only the plain case is served here: a well-formed subscription that validates, whose caller is
 * admitted and whose subscribe answers a stream. Everything else (a query or mutation over SSE, a
 * body that is not JSON, a syntax or validation error, a refused or rate-limited caller, a
 * subscription that answers errors at once) is handed to Yoga, which answers it as it always has;
 * the context already built is handed over with it, so the rate limit counts the request once.
 */

type Params = { query: string; operationName?: string; variables?: Record<string, unknown> };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request's GraphQL parameters as Yoga would read them, or null for anything unusual (Yoga answers it). */
function paramsOf(req: Request): Params | null {
  let raw: unknown;
  if (req.method === 'GET') {
    const q = req.query as Record<string, unknown>;
    let variables: unknown = q.variables;
    if (typeof variables === 'string') {
      try {
        variables = JSON.parse(variables);
      } catch {
        return null;
      }
    }
    raw = { query: q.query, operationName: q.operationName, variables };
  } else if (req.method === 'POST' && /^application\/json\b/i.test(req.headers['content-type'] ?? '') && Buffer.isBuffer(req.body)) {
    try {
      raw = JSON.parse(req.body.toString('utf8'));
    } catch {
      return null;
    }
  } else {
    return null;
  }
  if (!isRecord(raw) || typeof raw.query !== 'string') return null;
  const { query, operationName, variables } = raw;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return null;
  return { query, operationName: operationName ?? undefined, variables: variables ?? undefined };
}

export function sseSubscriptions(deps: Deps, yoga: Yoga): { handler: RequestHandler; open: () => number } {
  // One keep-alive for every open stream, as for WebSockets: an idle page holds no timer of its own.
  const keepAlive = new KeepAlive<Response>((res) => {
    // A stream still waiting for its reader to take the last event needs no ping.
    if (!res.writableEnded && !res.destroyed && !res.writableNeedDrain) res.write(SSE_COMMENT);
  }, SSE_KEEP_ALIVE_MS);

  async function serve(req: Request, res: Response): Promise<boolean> {
    const params = paramsOf(req);
    if (!params) return false;
    const { schema, parse, validate, subscribe } = yoga.getEnveloped({ req, res, params });
    let document: DocumentNode;
    try {
      document = parse(params.query);
    } catch {
      return false;
    }
    if (getOperationAST(document, params.operationName)?.operation !== 'subscription') return false;
    if (validate(schema, document).length) return false;

    const context = httpContext(deps, (name) => headerOf(req, name), req.ip);
    handOverContext(req, context);
    let contextValue: GraphQLContext;
    try {
      contextValue = await context;
    } catch {
      return false;
    }
    let result: ExecutionResult | AsyncIterable<ExecutionResult>;
    try {
      result = (await subscribe({ schema, document, operationName: params.operationName, variableValues: params.variables, contextValue })) as typeof result;
    } catch {
      return false;
    }
    if (!isAsyncIterable(result)) return false;
    forgetContext(req);
    // The body's bytes are read: let them go (a small Buffer keeps its whole 8 KiB pool slab alive).
    req.body = undefined;
    stream(res, result);
    return true;
  }

  function stream(res: Response, events: AsyncIterable<ExecutionResult>): void {
    const iterator = events[Symbol.asyncIterator]();
    res.writeHead(200, SSE_HEADERS);
    // Some browsers wait for a first byte before they hand a streamed response to the page.
    res.write(SSE_COMMENT);
    keepAlive.add(res);
    const stop = () => {
      keepAlive.delete(res);
      void iterator.return?.();
    };
    res.once('close', stop);
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await iterator.next();
          if (res.destroyed) return;
          // A reader that stops reading holds the next event back, not an ever longer queue of them
          // (Yoga's stream pulled the next value only when there was room, too).
          if (value != null && !res.write(`event: next\ndata: ${serializeEvent(value)}\n\n`)) await roomIn(res);
          if (done) break;
        }
        keepAlive.delete(res);
        res.end(SSE_COMPLETE);
      } catch (err) {
        // As Yoga does with a stream that fails: the connection ends without `complete`.
        deps.log.error({ err }, 'subscription stream failed');
        keepAlive.delete(res);
        res.destroy();
      }
    })();
  }

  const handler: RequestHandler = (req, res, next) => {
    if (!prefersEventStream(req.headers.accept)) return next();
    serve(req, res).then(
      (served) => {
        if (!served) next();
      },
      (err: unknown) => {
        forgetContext(req);
        next(err);
      },
    );
  };
  return { handler, open: () => keepAlive.size };
}

/**
 * The client asks for an event stream before a multipart one (urql asks "text/event-stream,
 * multipart/mixed" for a subscription): the answer Yoga would choose for a subscription.
 */
function prefersEventStream(accept: string | undefined): boolean {
  const sse = accept?.indexOf('text/event-stream') ?? -1;
  if (sse < 0) return false;
  const multipart = accept!.indexOf('multipart/mixed');
  return multipart < 0 || sse < multipart;
}

/** Until the response has room again, or has closed. */
function roomIn(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function headerOf(req: Request, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
