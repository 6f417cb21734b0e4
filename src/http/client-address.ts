import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '../config.js';

/**
 * The client's address for a request Express does not see (a WebSocket upgrade), read as Express
 * reads `req.ip`: X-Forwarded-For believed only from the proxies TRUST_PROXY trusts (src/config.ts
 * compiles it once for both). Behind a proxy the socket's peer is the proxy, and per-address limits
 * would count every client as one.
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy | undefined): string | undefined {
  return trust ? proxyaddr(req, trust) : req.socket.remoteAddress;
}
