import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../domain/deps.js';
import { attachGraphQLWebSocket } from '../graphql/ws.js';
import { createGraphQLServer } from '../graphql/yoga.js';
import { createApp } from './app.js';
import { answerClientError } from './client-errors.js';

export type HttpServer = { server: Server; port: number; close: () => Promise<void> };

/** Express, Yoga (HTTP + SSE) and graphql-ws sharing one port. */
export async function startHttpServer(deps: Deps, port: number, host = '0.0.0.0'): Promise<HttpServer> {
  const yoga = createGraphQLServer(deps);
  const app = createApp(deps, yoga);
  const server = createServer(app);
  // Slow clients must not hold sockets forever; in-flight requests finish on shutdown.
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
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
      server.closeIdleConnections();
      // In-flight requests get a grace period; long-lived streams are cut after it.
      const cut = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(cut);
    },
  };
}
