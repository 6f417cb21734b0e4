import type { IncomingMessage } from 'node:http';
import { GraphQLError, type DocumentNode, type ExecutionArgs } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { toAppError } from '../error-translator.js';
import type { Deps } from '../domain/deps.js';
import { clientAddress } from '../http/client-address.js';
import { websocketSession } from '../http/session-cookie.js';
import { buildContext } from './context-factory.js';
import { catalogExtensions, toCatalogError } from './errors.js';
import type { Yoga } from './yoga.js';

type Run = (a: ExecutionArgs) => unknown;
export type EnvelopedArgs = ExecutionArgs & { rootValue: { execute: Run; subscribe: Run } };

/** An error for one operation's `error` message: a catalog code, no HTTP hints, no internals. */
export function operationError(err: unknown, deps: Deps): GraphQLError {
  const production = deps.config.nodeEnv === 'production';
  if (err instanceof GraphQLError && !err.originalError) return withoutHttp(toCatalogError(err, production));
  const appError = toAppError(err instanceof GraphQLError ? err.originalError : err, deps.log);
  return withoutHttp(new GraphQLError(appError.message, { extensions: catalogExtensions(appError) }));
}

function withoutHttp(e: GraphQLError): GraphQLError {
  const { http: _transportOnly, ...extensions } = e.extensions as Record<string, unknown>;
  return new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, extensions });
}

/**
 * Turns one `subscribe` message into execution arguments, or into errors for that operation only:
 * a syntax error, a document over armor's limits, a validation error or a refused caller never
 * throws, because a throw here would close the whole socket and every subscription on it.
 */
export async function prepareOperation(
  deps: Deps,
  yoga: Yoga,
  ctx: { connectionParams?: Readonly<Record<string, unknown>>; extra: { request: IncomingMessage } },
  params: SubscribePayload,
): Promise<EnvelopedArgs | GraphQLError[]> {
  try {
    const { schema, execute, subscribe, parse, validate } = yoga.getEnveloped({ ...ctx, params });
    let document: DocumentNode;
    try {
      document = parse(params.query);
    } catch (err) {
      return [operationError(err, deps)];
    }
    const invalid = validate(schema, document);
    if (invalid.length) return invalid.map((e: GraphQLError) => operationError(e, deps));
    const fromParams = ctx.connectionParams?.Authorization ?? ctx.connectionParams?.authorization;
    const authorization = typeof fromParams === 'string' ? fromParams : ctx.extra.request.headers.authorization;
    return {
      schema,
      operationName: params.operationName,
      document,
      variableValues: params.variables,
      contextValue: await buildContext(deps, authorization, clientAddress(ctx.extra.request, deps.config.trustProxy), websocketSession(deps.config, ctx.extra.request)),
      rootValue: { execute, subscribe },
    };
  } catch (err) {
    return [operationError(err, deps)];
  }
}

/** Runs execute or subscribe; a throw becomes this operation's error result, never a closed socket. */
export async function runOperation(run: Run, args: ExecutionArgs, deps: Deps): Promise<unknown> {
  try {
    return await run(args);
  } catch (err) {
    return { errors: [operationError(err, deps)] };
  }
}
