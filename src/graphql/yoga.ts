import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Deps } from '../domain/deps.js';
import { buildContext } from './context-factory.js';
import type { GraphQLContext } from './context.js';
import { createMaskError, useCatalogErrorCodes } from './errors.js';
import { schema } from './schema/index.js';

export type Yoga = YogaServerInstance<Record<string, unknown>, GraphQLContext>;

export function createGraphQLServer(deps: Deps): Yoga {
  const production = deps.config.nodeEnv === 'production';
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL is bundled from the package: these machines (and many deployments) have no CDN.
    renderGraphiQL,
    graphiql: { title: 'Card-to-card gateway', subscriptionsProtocol: 'WS' },
    landingPage: false,
    logging: {
      debug: (...args) => deps.log.debug({ yoga: args }, 'graphql'),
      info: (...args) => deps.log.info({ yoga: args }, 'graphql'),
      warn: (...args) => deps.log.warn({ yoga: args }, 'graphql'),
      error: (...args) => deps.log.error({ yoga: args }, 'graphql'),
    },
    context: ({ request, req }) => buildContext(deps, request.headers.get('authorization'), (req as { ip?: string } | undefined)?.ip),
    maskedErrors: { maskError: createMaskError(deps.log), isDev: false },
    plugins: [
      EnvelopArmorPlugin({
        maxDepth: { n: 12 },
        maxAliases: { n: 20 },
        costLimit: { maxCost: 5000 },
        maxDirectives: { n: 20 },
        maxTokens: { n: 2000 },
        blockFieldSuggestion: { enabled: production },
      }),
      useCatalogErrorCodes(),
    ],
  });
}
