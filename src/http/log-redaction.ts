import type { IncomingMessage } from 'node:http';

const REDACTED = '[redacted]';
// Path segments that are bearer capabilities: a payment token can cancel a payment.
const SECRET_SEGMENT = /^(\/pay|\/v1\/checkout|\/v1\/device\/hooks)\/[^/?#]+/;
const SECRET_PARAM = /token|key|secret|auth|variables|extensions|query/i;

/** A URL fit for logs: capability segments and sensitive query values replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(SECRET_SEGMENT, (_m, prefix: string) => `${prefix}/${REDACTED}`);
  if (q === -1) return path;
  const graphql = path === '/graphql' || path.startsWith('/graphql/');
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      // A GraphQL GET carries the whole operation (and its variables: tokens) in the query string.
      return graphql || SECRET_PARAM.test(name) ? `${name}=${REDACTED}` : pair;
    });
  return `${path}?${params.join('&')}`;
}

const SECRET_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'sec-websocket-protocol']);

type LoggedRequest = IncomingMessage & { originalUrl?: string };

/** pino-http's request serializer: method, redacted URL, headers without credentials, peer. */
export function serializeRequest(req: LoggedRequest & { id?: unknown; raw?: LoggedRequest }) {
  const raw = req.raw ?? req;
  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw.headers)) headers[name] = SECRET_HEADERS.has(name) ? REDACTED : value;
  return {
    id: req.id,
    method: raw.method,
    url: redactUrl(raw.originalUrl ?? raw.url ?? ''),
    headers,
    remoteAddress: raw.socket?.remoteAddress,
  };
}
