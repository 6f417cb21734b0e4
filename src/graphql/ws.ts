import type { Server } from 'node:http';
import type { ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Deps } from '../domain/deps.js';
import { buildContext } from './context-factory.js';
import type { Yoga } from './yoga.js';

type EnvelopedArgs = ExecutionArgs & { rootValue: { execute: (a: ExecutionArgs) => unknown; subscribe: (a: ExecutionArgs) => unknown } };

/**
 * graphql-ws (`graphql-transport-ws`) on the HTTP server's `/graphql`, through Yoga's envelop so
 * the same plugins (armor, masking, codes) apply. The credential comes from the connection params
 * (`Authorization`) or the upgrade request's header.
 */
export function attachGraphQLWebSocket(server: Server, yoga: Yoga, deps: Deps) {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const disposable = useServer(
    {
      execute: (args) => (args as EnvelopedArgs).rootValue.execute(args) as never,
      subscribe: (args) => (args as EnvelopedArgs).rootValue.subscribe(args) as never,
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, parse, validate } = yoga.getEnveloped({ ...ctx, params });
        const fromParams = ctx.connectionParams?.Authorization ?? ctx.connectionParams?.authorization;
        const authorization = typeof fromParams === 'string' ? fromParams : ctx.extra.request.headers.authorization;
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await buildContext(deps, authorization, ctx.extra.request.socket.remoteAddress),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors;
        return args;
      },
    },
    wss,
  );
  return {
    close: async () => {
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
