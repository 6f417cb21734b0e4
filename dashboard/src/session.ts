import { CSRF_HEADER } from './client.js';

/** The cookie session: REST under /v1/session (the cookie is HttpOnly; this page never sees it). */

/** A refusal keeps the API's error code: the login page tells `totp_required` from a wrong password. */
export type SessionResult = { ok: true } | { ok: false; status: number; code: string | null; message: string };

async function send(method: string, path: string, body?: unknown): Promise<SessionResult> {
  try {
    const res = await fetch(path, {
      method,
      credentials: 'same-origin',
      // REST asks a cookie request that changes anything for the same header as GraphQL.
      headers: body === undefined ? { ...CSRF_HEADER } : { ...CSRF_HEADER, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.ok) return { ok: true };
    const answer = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    return { ok: false, status: res.status, code: answer?.error?.code ?? null, message: answer?.error?.message ?? res.statusText };
  } catch {
    return { ok: false, status: 0, code: null, message: 'ارتباط با سرور برقرار نشد؛ دوباره تلاش کنید.' };
  }
}

/** `totp`: the second step's answer, a current code of the user's app or one of their recovery codes. */
export const login = (email: string, password: string, totp?: string) =>
  send('POST', '/v1/session', totp === undefined ? { email, password } : { email, password, totp });
export const logout = () => send('DELETE', '/v1/session');
/** A forgotten password: 204 whatever the email (a known user gets a one-time link by mail). */
export const requestReset = (email: string) => send('POST', '/v1/session/reset', { email });
export const setPassword = (token: string, password: string) => send('POST', '/v1/session/password', { token, password });

export const MIN_PASSWORD = 10;
