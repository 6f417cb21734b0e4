import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Config } from '../config.js';
import type { SessionCredential } from '../domain/auth/authenticate.js';
import { SESSION_ABSOLUTE_MS, TRUSTED_DEVICE_MS } from '../domain/users/session-rules.js';

/**
 * The dashboard session cookie, for every door: HttpOnly (no script reads it), SameSite=Strict (no
 * other site's page sends it), Path=/, Secure unless the service is plain http on localhost.
 * Behind https it is named with the `__Host-` prefix, which browsers accept only from a secure
 * origin, for the exact host, on Path=/ (no subdomain can plant or shadow it).
 *
 * Since a browser sends the cookie by itself, a request it authenticates must also show that the
 * dashboard's own script sent it: the header x-graphql-yoga-csrf (any value), which a form or
 * another site's page cannot add (a script elsewhere would need a CORS preflight with credentials,
 * which CORS here never grants). GraphQL asks it of every request; REST of every request but GET
 * and HEAD; graphql-ws (no headers in browsers) takes the Origin of the upgrade as well.
 */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function cookieIsSecure(publicBaseUrl: string): boolean {
  const url = new URL(publicBaseUrl);
  return !(url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
}

export function sessionCookieName(config: Pick<Config, 'publicBaseUrl'>): string {
  return cookieIsSecure(config.publicBaseUrl) ? '__Host-gw_session' : 'gw_session';
}

/** The value of one cookie in a Cookie header (the first of that name), if any. */
export function readCookie(header: string | undefined | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function attributes(config: Pick<Config, 'publicBaseUrl'>, maxAgeSeconds: number): string {
  return `Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${cookieIsSecure(config.publicBaseUrl) ? '; Secure' : ''}`;
}

/** Set-Cookie for a new session; the browser keeps it no longer than the session can live. */
export function sessionSetCookie(config: Pick<Config, 'publicBaseUrl'>, token: string): string {
  return `${sessionCookieName(config)}=${token}; ${attributes(config, Math.floor(SESSION_ABSOLUTE_MS / 1000))}`;
}

export function sessionClearCookie(config: Pick<Config, 'publicBaseUrl'>): string {
  return `${sessionCookieName(config)}=; ${attributes(config, 0)}`;
}

/**
 * The device cookie (docs/security.md "Signing in"): set at each successful sign-in beside the
 * session's, with the same attributes, for 180 days, and read only by `POST /v1/session`. It
 * marks a browser where this user signed in before, so that failures elsewhere never refuse it.
 */
export function deviceCookieName(config: Pick<Config, 'publicBaseUrl'>): string {
  return cookieIsSecure(config.publicBaseUrl) ? '__Host-gw_device' : 'gw_device';
}

export function deviceSetCookie(config: Pick<Config, 'publicBaseUrl'>, token: string): string {
  return `${deviceCookieName(config)}=${token}; ${attributes(config, Math.floor(TRUSTED_DEVICE_MS / 1000))}`;
}

/** The device cookie of a request, or undefined. */
export function deviceToken(config: Pick<Config, 'publicBaseUrl'>, cookieHeader: string | undefined | null): string | undefined {
  if (!cookieHeader) return undefined;
  return readCookie(cookieHeader, deviceCookieName(config)) || undefined;
}

/** The session cookie of a request, or undefined. */
export function sessionToken(config: Pick<Config, 'publicBaseUrl'>, cookieHeader: string | undefined | null): string | undefined {
  // API calls carry no cookie: no name to work out (a URL parse) on their path.
  if (!cookieHeader) return undefined;
  return readCookie(cookieHeader, sessionCookieName(config)) || undefined;
}

/** A REST request's session: the CSRF header is needed on anything but GET and HEAD. */
export function restSession(config: Pick<Config, 'publicBaseUrl'>, method: string, headers: IncomingHttpHeaders): SessionCredential | null {
  const token = sessionToken(config, headers.cookie);
  if (!token) return null;
  return { token, csrf: SAFE_METHODS.has(method.toUpperCase()) || headers[CSRF_HEADER] !== undefined };
}

/** A GraphQL-over-HTTP request's session (POST, GET and SSE alike): the CSRF header is always needed. */
export function graphqlSession(config: Pick<Config, 'publicBaseUrl'>, header: (name: string) => string | null): SessionCredential | null {
  const token = sessionToken(config, header('cookie'));
  if (!token) return null;
  return { token, csrf: header(CSRF_HEADER) !== null };
}

/**
 * A graphql-ws upgrade's session. Browsers cannot add headers to a WebSocket, but they always send
 * the page's Origin, which a page cannot forge: the cookie counts only from our own origin (the
 * public base URL's, or the very host the upgrade was sent to), or with the CSRF header, which
 * only a client that is not a browser can put on an upgrade.
 */
export function websocketSession(config: Pick<Config, 'publicBaseUrl'>, request: IncomingMessage): SessionCredential | null {
  const token = sessionToken(config, request.headers.cookie);
  if (!token) return null;
  const csrf = request.headers[CSRF_HEADER] !== undefined || sameOrigin(config.publicBaseUrl, request.headers.origin, request.headers.host);
  return { token, csrf };
}

/**
 * A browser request sent by another site's page: its Origin (which every browser sends on a POST
 * and which a page cannot forge) is not ours. Clients that are not browsers send none.
 */
export function fromAnotherSite(config: Pick<Config, 'publicBaseUrl'>, headers: IncomingHttpHeaders): boolean {
  return headers.origin !== undefined && !sameOrigin(config.publicBaseUrl, headers.origin, headers.host);
}

function sameOrigin(publicBaseUrl: string, origin: string | undefined, host: string | undefined): boolean {
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.origin === new URL(publicBaseUrl).origin || (host !== undefined && url.host === host);
}
