import { Client, cacheExchange, fetchExchange, mapExchange, type CombinedError } from '@urql/core';

/**
 * The dashboard talks to the public GraphQL API like any merchant frontend: same origin, the
 * session cookie (HttpOnly, SameSite=Strict) and the CSRF header Yoga asks of cookie requests.
 * Subscriptions ride the same fetch as server-sent events, so they carry the cookie and the header
 * too and need nothing beyond `connect-src 'self'`.
 */
export const CSRF_HEADER = { 'x-graphql-yoga-csrf': '1' } as const;

export function isUnauthorized(error: CombinedError): boolean {
  if (error.response && (error.response as Response).status === 401) return true;
  return error.graphQLErrors.some((e) => e.extensions?.code === 'unauthorized');
}

export function createClient(onUnauthorized: () => void): Client {
  return new Client({
    url: '/graphql',
    fetchSubscriptions: true,
    // POST, so no query text or variables land in URLs (access logs, proxies).
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    fetchOptions: { credentials: 'same-origin', headers: { ...CSRF_HEADER } },
    exchanges: [
      mapExchange({
        onError(error, operation) {
          // A live stream ends with `unauthorized` whenever the session's credential changes, a
          // new role included: the session may well go on. The stream's owner (LiveProvider) reads
          // again, and those reads go to the login page if the session is really over.
          if (operation.kind !== 'subscription' && isUnauthorized(error)) onUnauthorized();
        },
      }),
      cacheExchange,
      fetchExchange,
    ],
  });
}
