import { useEffect, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/**
 * The dashboard's own small router: paths under /dashboard, the History API, bookmarkable URLs.
 * Pages import it for their links, so it imports no page: the page table (lazy-pages.tsx) is
 * handed to it by main.tsx (`preloadPagesWith`).
 */
export const BASE = '/dashboard';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((fn) => fn());
// (Guarded: the unit tests import modules that import this one, outside a browser.)
if (typeof window !== 'undefined') window.addEventListener('popstate', notify);

function subscribe(fn: () => void) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
const snapshot = () => window.location.pathname + window.location.search;

/**
 * Live and test apart: the dashboard shows live data; the mirror below /dashboard/test
 * (`/dashboard/test`, `/dashboard/test/payments`, …) shows the sandbox projects' data. Pages see the
 * same path in both (`mode` says which), and every dashboard link keeps the mode it is followed in.
 */
export type Mode = 'live' | 'test';
const TEST_PREFIX = '/test';

/** A path below /dashboard split into its mode and the page's path ("/" for the overview). */
export function splitMode(below: string): { mode: Mode; path: string } {
  const clean = below.replace(/\/+$/, '') || '/';
  if (clean === TEST_PREFIX || clean.startsWith(`${TEST_PREFIX}/`)) return { mode: 'test', path: clean.slice(TEST_PREFIX.length) || '/' };
  return { mode: 'live', path: clean };
}

/** Pages outside the mirror: signing in is the same for live and test. */
const MODELESS = /^\/(login|set-password)(\/|$|\?)/;

/** A dashboard address (`/dashboard/…`) in the given mode; any other address as it is. */
export function inMode(to: string, mode: Mode): string {
  if (to !== BASE && !to.startsWith(`${BASE}/`) && !to.startsWith(`${BASE}?`)) return to;
  const rest = to.slice(BASE.length);
  const [pathPart = '', ...queryParts] = rest.split('?');
  const { path } = splitMode(pathPart || '/');
  if (MODELESS.test(path)) return to;
  const query = queryParts.length ? `?${queryParts.join('?')}` : '';
  const page = path === '/' ? '' : path;
  return `${BASE}${mode === 'test' ? TEST_PREFIX : ''}${page}${query}`;
}

/** The mode of the address shown now. */
export function currentMode(): Mode {
  return splitMode(window.location.pathname.slice(BASE.length)).mode;
}

export type Location = { path: string; query: URLSearchParams; mode: Mode };

/** The page's path below /dashboard (and below /test: "/" for the overview), the query and the mode. */
export function useLocation(): Location {
  const href = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(href, window.location.origin);
  const { mode, path } = splitMode(url.pathname.slice(BASE.length));
  return { path, query: url.searchParams, mode };
}

/** Live or test: what the page shows (the mirror /dashboard/test/… is test). */
export function useMode(): Mode {
  return useLocation().mode;
}

export function href(path: string, query?: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v) search.set(k, v);
  const qs = search.toString();
  return `${BASE}${path === '/' ? '' : path}${qs ? `?${qs}` : ''}`;
}

/** Goes to a dashboard address, in the mode shown now unless `mode` names the other one. */
export function navigate(to: string, opts: { replace?: boolean; mode?: Mode } = {}): void {
  to = inMode(to, opts.mode ?? currentMode());
  if (to === snapshot()) return;
  if (opts.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.scrollTo(0, 0);
  notify();
}

/** Where to go after login: only a dashboard path of this origin (no open redirect). */
export function safeNext(next: string | null): string {
  return next && next.startsWith(`${BASE}`) && !next.startsWith('//') ? next : BASE;
}

export function loginHref(): string {
  return `${BASE}/login?next=${encodeURIComponent(snapshot())}`;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; mode?: Mode };

let preloadPage: (path: string) => void = () => {};

/** How a link fetches its page's chunk ahead (a path below /dashboard): main.tsx gives lazy-pages' `preloadPage`. */
export function preloadPagesWith(preload: (path: string) => void): void {
  preloadPage = preload;
}

/** The page a dashboard link leads to, its chunk fetched ahead when the pointer or focus reaches the link. */
function preload(to: string): void {
  const path = to.split('?')[0] ?? '';
  if (path === BASE || path.startsWith(`${BASE}/`)) preloadPage(splitMode(path.slice(BASE.length)).path);
}

/** A link inside the dashboard; it keeps the mode shown now (live or test) unless `mode` says otherwise. */
export function Link({ to: target, mode, onClick, ...rest }: LinkProps) {
  const shown = useMode();
  const to = inMode(target, mode ?? shown);
  const go = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to, { mode: mode ?? shown });
  };
  const ahead = () => preload(to);
  return <a href={to} onClick={go} onPointerEnter={ahead} onFocus={ahead} onTouchStart={ahead} {...rest} />;
}

export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · داشبورد پذیرنده`;
  }, [title]);
}
