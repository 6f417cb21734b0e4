import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../domain/deps.js';
import { attachGraphQLWebSocket } from '../graphql/ws.js';
import { createGraphQLServer } from '../graphql/yoga.js';
import { createApp } from './app.js';
import { answerClientError } from './client-errors.js';

export type HttpServer = { server: Server; port: number; close: () => Promise<void> };

/** How long an idle keep-alive connection stays open (Node adds its `keepAliveTimeoutBuffer`, 1 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Express, Yoga (HTTP + SSE) and graphql-ws sharing one port. */
export async function startHttpServer(deps: Deps, port: number, host = '0.0.0.0'): Promise<HttpServer> {
  const yoga = createGraphQLServer(deps);
  const app = createApp(deps, yoga);
  const server = createServer(app);
  // Slow clients must not hold sockets forever; in-flight requests finish on shutdown. Node counts
  // both from the first byte of each request, so an idle keep-alive connection is not cut by them.
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
  // An idle keep-alive connection stays open longer than clients keep one (undici and Node's agent
  // follow the `Keep-Alive: timeout` hint less a margin; load balancers idle out at 60 s), so a
  // client never sends into a connection the server is closing. With Node's 5 s, a client whose
  // event loop was busy past it (digesting a large introspection answer) wrote its next request into
  // a closed socket: "other side closed".
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.on('clientError', answerClientError);
  const ws = attachGraphQLWebSocket(server, yoga, deps);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: async () => {
      await ws.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A request that arrives on an open connection meanwhile is answered with `Connection: close`,
      // and a connection whose response is done is closed then, not kept idle for 65 s.
      server.on('request', (_req, res: ServerResponse) => (res.shouldKeepAlive = false));
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 250);
      // In-flight requests get a grace period; long-lived streams are cut after it.
      const cut = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearInterval(sweep);
      clearTimeout(cut);
    },
  };
}
