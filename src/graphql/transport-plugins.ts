import { GraphQLError, NoSchemaIntrospectionCustomRule, type ExecutionResult, type GraphQLFormattedError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { KeepAlive } from '../events/keep-alive.js';
import { mayReorderKeys, parseJsonInOrder } from '../ordered-json.js';

/** Production hides the schema from strangers unless GRAPHQL_INTROSPECTION=1 says otherwise. */
export function useNoIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}

const STATUS_CODES: Record<number, string> = { 404: 'not_found', 405: 'method_not_allowed', 406: 'not_acceptable', 415: 'unsupported_media_type' };

/**
 * Yoga answers a few refusals (406, 415, an unknown method) with an empty body; every error answer
 * of this service is JSON, so those get a GraphQL-shaped body with the catalog code.
 */
export function useJsonErrorBodies(): Plugin {
  return {
    onResponse({ response, setResponse, fetchAPI }) {
      if (response.status < 400 || response.body !== null) return;
      const code = STATUS_CODES[response.status] ?? 'invalid_request';
      const message = response.statusText || 'The request was refused.';
      const headers = new fetchAPI.Headers(response.headers);
      headers.set('content-type', 'application/json; charset=utf-8');
      const body = JSON.stringify({ errors: [{ message, extensions: { code, details: {} } }] });
      setResponse(new fetchAPI.Response(body, { status: response.status, statusText: response.statusText, headers }));
    },
  };
}

/**
 * The HTTP adapter (src/http/app.ts) reads every GraphQL body before Yoga and leaves its bytes on
 * the Node request. Yoga's server adapter takes those bytes only when they are non-empty (it treats
 * an object with no keys, such as an empty Buffer, as "nothing parsed" and reads the Node stream
 * instead); but that stream was drained by the adapter and its 'end' has passed, so an empty body
 * (`Content-Length: 0`, or chunked with no chunk) waited forever for an end that never came. Here
 * the bytes read, even none, are the request's body, and Yoga answers it as it answers any body
 * that is not JSON (400 invalid_json).
 *
 * A JSON body whose objects JSON.parse would list in another key order (integer-like keys in a
 * createPayment's metadata variable) is read here keeping its text's order (src/ordered-json.ts):
 * Yoga's `request.json()` answers that value. Anything that does not parse is left to Yoga.
 */
export function useBodyReadByAdapter(): Plugin {
  return {
    onRequest({ request, serverContext, setRequest, fetchAPI }) {
      const read = (serverContext as { req?: { body?: unknown } }).req?.body;
      if (!(read instanceof Uint8Array)) return;
      if (read.byteLength === 0) {
        setRequest(new fetchAPI.Request(request.url, { method: request.method, headers: request.headers, signal: request.signal, body: new Uint8Array(0) }));
        return;
      }
      const text = Buffer.from(read.buffer, read.byteOffset, read.byteLength).toString('utf8');
      if (!mayReorderKeys(text)) return;
      let value: unknown;
      try {
        value = parseJsonInOrder(text);
      } catch {
        return;
      }
      setRequest(
        new Proxy(request, {
          get(target, prop) {
            if (prop === 'json') return () => Promise.resolve(value);
            const member: unknown = Reflect.get(target, prop, target);
            return typeof member === 'function' ? member.bind(target) : member;
          },
        }),
      );
    },
  };
}

/**
 * An open subscription holds its GraphQL context until it ends, and over HTTP that context is Yoga's
 * server context: it carries the fetch Request, with its consumed body stream (~12 KiB), and the
 * request's parameters. Nothing reads either once the subscription runs (its fields read `deps` and
 * `actor`), so they are let go as it starts.
 */
export function useLeanSubscriptionContext(): Plugin {
  // One hook object for every subscription: envelop keeps what `onSubscribe` returns while it runs.
  const afterSubscribe = {
    onSubscribeResult: ({ args, result }: { args: { contextValue: unknown }; result: unknown }) => {
      if (!isAsyncIterable(result)) return;
      const context = args.contextValue as { request?: unknown; params?: unknown };
      if ('request' in context) context.request = undefined;
      if ('params' in context) context.params = undefined;
    },
  };
  return { onSubscribe: () => afterSubscribe };
}

type OnResultProcess = NonNullable<Plugin['onResultProcess']>;
type ResultProcessor = Parameters<Parameters<OnResultProcess>[0]['setResultProcessor']>[0];
type FetchAPI = Parameters<ResultProcessor>[1];
type StreamController = ReadableStreamDefaultController<Uint8Array>;
type Result = ExecutionResult & { stringify?: (r: ExecutionResult) => string };

export const SSE_KEEP_ALIVE_MS = 12_000;
const encoder = new TextEncoder();
export const SSE_COMMENT = encoder.encode(':\n\n');
export const SSE_COMPLETE = encoder.encode('event: complete\ndata:\n\n');
export const SSE_HEADERS = { 'Content-Type': 'text/event-stream', Connection: 'keep-alive', 'Cache-Control': 'no-cache', 'Content-Encoding': 'none' };

const nonEmpty = (o: Record<string, unknown>) => (Object.keys(o).length ? o : undefined);

/** As Yoga serialises an event: transport hints (`http`, `unexpected`) never reach the client. */
export function serializeEvent(result: Result): string {
  const stringify = result.stringify ?? JSON.stringify;
  if (!result.errors?.length && !result.extensions?.http) return stringify(result);
  const { http: _transportOnly, ...extensions } = result.extensions ?? {};
  return stringify({ ...result, errors: result.errors?.map(publicError), extensions: nonEmpty(extensions) } as ExecutionResult);
}

function publicError(error: GraphQLError): GraphQLFormattedError | GraphQLError {
  if (!(error instanceof GraphQLError)) return error;
  const { http: _http, unexpected: _unexpected, ...extensions } = error.extensions ?? {};
  return { ...error.toJSON(), extensions: nonEmpty(extensions) };
}

/**
 * A subscription's server-sent events, byte for byte as Yoga writes them (a comment first, `event:
 * next` per value, `event: complete` at the end, a comment every 12 s while idle), with one shared
 * keep-alive for every open stream instead of an interval each.
 */
function sseProcessor(keepAlive: KeepAlive<StreamController>): ResultProcessor {
  return (result, fetchAPI: FetchAPI) => {
    const iterator = (result as AsyncIterable<Result>)[Symbol.asyncIterator]();
    let stream: StreamController | undefined;
    const body = new fetchAPI.ReadableStream<Uint8Array>({
      start(controller) {
        stream = controller;
        // Some browsers wait for a first byte before they hand a streamed response to the page.
        controller.enqueue(SSE_COMMENT);
        keepAlive.add(controller);
      },
      async pull(controller) {
        try {
          const { done, value } = await iterator.next();
          if (value != null) controller.enqueue(encoder.encode(`event: next\ndata: ${serializeEvent(value)}\n\n`));
          if (done) {
            keepAlive.delete(controller);
            controller.enqueue(SSE_COMPLETE);
            controller.close();
          }
        } catch (err) {
          keepAlive.delete(controller);
          controller.error(err);
        }
      },
      async cancel() {
        if (stream) keepAlive.delete(stream);
        await iterator.return?.();
      },
    });
    return new fetchAPI.Response(body, { status: 200, headers: SSE_HEADERS });
  };
}

/**
 * Serves subscriptions' server-sent events with `sseProcessor` where Yoga chose its own SSE processor
 * (`processSSEResult`, which keeps an interval per stream) for a subscription; any other answer stays
 * Yoga's. Were Yoga to rename it, its own processor would serve again, and
 * test/checkout-api/subscription-footprint.test.ts would say so.
 */
export function useSharedKeepAliveSse(periodMs = SSE_KEEP_ALIVE_MS): Plugin {
  const keepAlive = new KeepAlive<StreamController>((controller) => {
    try {
      if (controller.desiredSize === null) keepAlive.delete(controller);
      else if (controller.desiredSize > 0) controller.enqueue(SSE_COMMENT);
    } catch {
      keepAlive.delete(controller);
    }
  }, periodMs);
  const processor = sseProcessor(keepAlive);
  return {
    onResultProcess({ result, resultProcessor, setResultProcessor }) {
      if (isAsyncIterable(result) && resultProcessor?.name === 'processSSEResult') setResultProcessor(processor, 'text/event-stream');
    },
  };
}
