import type { IncomingMessage, Server } from 'node:http';
import { CloseCode, handleProtocols, makeServer } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Deps } from '../domain/deps.js';
import { KeepAlive } from '../events/keep-alive.js';
import { prepareOperation, runOperation, type EnvelopedArgs } from './ws-operation.js';
import type { Yoga } from './yoga.js';

type Extra = { socket: WebSocket; request: IncomingMessage };

const KEEP_ALIVE_MS = 12_000;
// The same cap as an HTTP GraphQL body; a bigger frame closes the socket (1009), as ws does.
const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * graphql-ws (`graphql-transport-ws`) on the HTTP server's `/graphql`, through Yoga's envelop so
 * the same plugins (armor, masking, codes) apply. The credential comes from the connection params
 * (`Authorization`) or the upgrade request's header. The socket glue is ours rather than
 * graphql-ws's `useServer`, which prints stack traces with console.error; here every problem goes
 * to the JSON log, and a bad operation errors that operation only.
 */
export function attachGraphQLWebSocket(server: Server, yoga: Yoga, deps: Deps) {
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: MAX_MESSAGE_BYTES, handleProtocols });
  const graphqlWs = makeServer<Record<string, unknown> | undefined, Extra>({
    execute: (args) => runOperation((args as EnvelopedArgs).rootValue.execute, args, deps) as never,
    subscribe: (args) => runOperation((args as EnvelopedArgs).rootValue.subscribe, args, deps) as never,
    onSubscribe: (ctx, _id, params) => prepareOperation(deps, yoga, ctx, params),
  });

  // One keep-alive for every socket: an idle checkout page's socket holds no timer of its own.
  const keepAlive = new KeepAlive<WebSocket>((socket) => {
    if (socket.readyState === socket.OPEN) socket.ping();
  }, KEEP_ALIVE_MS);

  wss.on('error', (err) => deps.log.error({ err }, 'websocket server error'));
  wss.on('connection', (socket, request) => {
    socket.on('error', (err) => {
      deps.log.info({ err: { message: err.message } }, 'websocket closed on a protocol error');
      socket.close(CloseCode.BadRequest, 'Bad request');
    });
    keepAlive.add(socket);
    const closed = graphqlWs.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, () => resolve());
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (cb) =>
          socket.on('message', async (data) => {
            try {
              await cb(String(data));
            } catch (err) {
              deps.log.error({ err }, 'graphql-ws message handling failed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      { socket, request },
    );
    socket.once('close', (code, reason) => {
      keepAlive.delete(socket);
      void closed(code, String(reason));
    });
  });

  return {
    close: async () => {
      keepAlive.stop();
      for (const client of wss.clients) client.close(1001, 'Going away');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
