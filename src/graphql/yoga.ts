import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { IncomingMessage } from 'node:http';
import type { Deps } from '../domain/deps.js';
import { httpContext } from './context-factory.js';
import type { GraphQLContext } from './context.js';
import { createMaskError, logYogaError, useCatalogErrorCodes } from './errors.js';
import { schema } from './schema/index.js';
import { contextBuiltForSse } from './context-handoff.js';
import { useBodyReadByAdapter, useJsonErrorBodies, useLeanSubscriptionContext, useNoIntrospection, useSharedKeepAliveSse } from './transport-plugins.js';

export type Yoga = YogaServerInstance<Record<string, unknown>, GraphQLContext>;

/** The limits graphql-armor enforces; over HTTP, SSE and WebSocket alike. */
export const ARMOR = { maxDepth: 12, maxAliases: 20, maxCost: 5000, maxDirectives: 20, maxTokens: 2000 };

export function createGraphQLServer(deps: Deps): Yoga {
  const production = deps.config.nodeEnv === 'production';
  const introspection = !production || deps.config.graphqlIntrospection;
  const plugins: Plugin[] = [
    useBodyReadByAdapter(),
    EnvelopArmorPlugin({
      maxDepth: { n: ARMOR.maxDepth },
      maxAliases: { n: ARMOR.maxAliases },
      costLimit: { maxCost: ARMOR.maxCost },
      maxDirectives: { n: ARMOR.maxDirectives },
      maxTokens: { n: ARMOR.maxTokens },
      blockFieldSuggestion: { enabled: production },
    }),
    useCatalogErrorCodes(production),
    useJsonErrorBodies(),
    useLeanSubscriptionContext(),
    useSharedKeepAliveSse(),
  ];
  if (!introspection) plugins.push(useNoIntrospection());
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL is bundled from the package: these machines (and many deployments) have no CDN.
    // Production serves none: a stranger gets no explorer of the schema. The package holds the
    // whole explorer as one JavaScript string (~27 MB of heap once loaded), so it is imported on
    // the first request for the page, never in production.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    graphiql: production
      ? false
      : {
          title: 'Card-to-card gateway',
          subscriptionsProtocol: 'WS',
          // A hint in the headers editor: which key to paste (a merchant key mk_… for management).
          headers: JSON.stringify({ Authorization: 'Bearer sk_test_…' }, null, 2),
          defaultEditorToolsVisibility: 'headers',
        },
    landingPage: false,
    // The HTTP adapter (src/http/app.ts) has read and capped every body before Yoga sees it
    // (useBodyReadByAdapter hands Yoga those bytes, an empty body included).
    maxRequestBodySize: false,
    // CORS is answered for every path by src/http/cors.ts (any origin, never credentials).
    cors: false,
    logging: {
      debug: (...args) => deps.log.debug({ yoga: args }, 'graphql'),
      info: (...args) => deps.log.info({ yoga: args }, 'graphql'),
      warn: (...args) => deps.log.warn({ yoga: args }, 'graphql'),
      error: logYogaError(deps.log),
    },
    context: ({ request, req }) =>
      contextBuiltForSse(req as IncomingMessage | undefined) ?? httpContext(deps, (name) => request.headers.get(name), (req as { ip?: string } | undefined)?.ip),
    maskedErrors: { maskError: createMaskError(deps.log), isDev: false },
    plugins,
  });
}
