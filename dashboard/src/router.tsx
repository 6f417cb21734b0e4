import { useEffect, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { BASE, currentMode, inMode, notify, snapshot, splitMode, subscribe, useMode, type Mode } from './mode.js';

export { BASE, currentMode, inMode, splitMode, useMode, type Mode };

/**
 * The dashboard's own small router: paths under /dashboard, the History API, bookmarkable URLs.
 * Pages import it for their links, so it imports no page: the page table (lazy-pages.tsx) is
 * handed to it by main.tsx (`preloadPagesWith`).
 */

export type Location = { path: string; query: URLSearchParams; mode: Mode };

/** The page's path below /dashboard (and below /test: "/" for the overview), the query and the mode. */
export function useLocation(): Location {
  const href = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(href, window.location.origin);
  const { mode, path } = splitMode(url.pathname.slice(BASE.length));
  return { path, query: url.searchParams, mode };
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
