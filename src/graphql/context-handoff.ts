import type { IncomingMessage } from 'node:http';
import type { GraphQLContext } from './context.js';

/**
 * The context the SSE path (sse.ts) built for a request it then handed to Yoga, which reuses it
 * (yoga.ts) rather than building a second one: the rate limit counts each request once.
 */
const builtContexts = new WeakMap<IncomingMessage, Promise<GraphQLContext>>();

export function handOverContext(req: IncomingMessage, context: Promise<GraphQLContext>): void {
  builtContexts.set(req, context);
}

export function forgetContext(req: IncomingMessage): void {
  builtContexts.delete(req);
}

/** For Yoga's `context` factory: the context already built for this request, if any. */
export function contextBuiltForSse(req: IncomingMessage | undefined): Promise<GraphQLContext> | undefined {
  return req ? builtContexts.get(req) : undefined;
}
