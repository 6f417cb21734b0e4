import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { fromRoot } from '../paths.js';
import express, { Router, type NextFunction, type Request, type Response } from 'express';

/**
 * The merchant's dashboard (`dashboard/`, a React app built by Vite into `dashboard/dist`): every
 * path under /dashboard answers its index.html (the app routes deep links itself), assets come
 * from /dashboard/assets with hashed names. The app talks only to /graphql and /v1 of this origin.
 */
const DIST = pathToFileURL(fromRoot('dashboard/dist') + '/');
const ASSETS = new URL('assets/', DIST);

/** Own origin only; connect-src also covers the SSE subscriptions (same origin fetch). */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function dashboardHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  next();
}

/** index.html, read once it exists (a build after start-up is picked up without a restart). */
function indexLoader(): () => Buffer | null {
  let cached: Buffer | null = null;
  return () => {
    if (cached) return cached;
    try {
      cached = readFileSync(new URL('index.html', DIST));
    } catch {
      cached = null;
    }
    return cached;
  };
}

const NOT_BUILT = `<!doctype html><html lang="fa" dir="rtl"><head><meta charset="utf-8"><title>داشبورد ساخته نشده</title></head>
<body><h1>داشبورد هنوز ساخته نشده است</h1><p lang="en" dir="ltr">The dashboard is not built: run <code>npm run dashboard:build</code>.</p></body></html>`;

export function dashboardRoutes(): Router {
  const index = indexLoader();
  const router = Router();
  router.use('/dashboard', dashboardHeaders);

  // Hashed names never change content: a year, immutable. An unknown asset is a plain 404, never
  // the app's HTML (a stale page asking for an old chunk must fail visibly, not parse HTML as JS).
  router.use(
    '/dashboard/assets',
    express.static(ASSETS.pathname, { immutable: true, maxAge: '365d', index: false, fallthrough: true, redirect: false }),
    (_req, res) => {
      res.status(404).type('text/plain; charset=utf-8').setHeader('Cache-Control', 'no-store');
      res.send('Not found');
    },
  );

  router.get(['/dashboard', '/dashboard/{*rest}'], (_req, res) => {
    const html = index();
    if (!html) {
      res.status(503).type('text/html; charset=utf-8').setHeader('Cache-Control', 'no-store');
      res.send(NOT_BUILT);
      return;
    }
    // Revalidated on every load (ETag), so a deployment's new asset names are picked up at once.
    res.status(200).type('text/html; charset=utf-8').setHeader('Cache-Control', 'no-cache');
    res.send(html);
  });
  return router;
}
