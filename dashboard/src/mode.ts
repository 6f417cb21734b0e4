import { useSyncExternalStore } from 'react';

/**
 * The address the dashboard shows, and its side: live or test. Kept apart from router.tsx (JSX) so
 * that plain modules (projects.ts) and the unit tests can read it.
 */
export const BASE = '/dashboard';

const listeners = new Set<() => void>();
export const notify = () => listeners.forEach((fn) => fn());
// (Guarded: the unit tests import modules that import this one, outside a browser.)
if (typeof window !== 'undefined') window.addEventListener('popstate', notify);

export function subscribe(fn: () => void) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
export const snapshot = () => window.location.pathname + window.location.search;

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

/** Live or test: what the page shows (the mirror /dashboard/test/… is test). */
export function useMode(): Mode {
  const href = useSyncExternalStore(subscribe, snapshot);
  return splitMode(new URL(href, window.location.origin).pathname.slice(BASE.length)).mode;
}
