import { CSRF_HEADER } from './client.js';

/** The cookie session: REST under /v1/session (the cookie is HttpOnly; this page never sees it). */

export type SessionResult = { ok: true } | { ok: false; status: number; message: string };

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
    return { ok: false, status: res.status, message: await readMessage(res) };
  } catch {
    return { ok: false, status: 0, message: 'ارتباط با سرور برقرار نشد؛ دوباره تلاش کنید.' };
  }
}

async function readMessage(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return body?.error?.message ?? res.statusText;
}

export const login = (email: string, password: string) => send('POST', '/v1/session', { email, password });
export const logout = () => send('DELETE', '/v1/session');
export const setPassword = (token: string, password: string) => send('POST', '/v1/session/password', { token, password });

export const MIN_PASSWORD = 10;
