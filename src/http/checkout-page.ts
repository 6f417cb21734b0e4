import { readFileSync } from 'node:fs';
import { Router, type Response } from 'express';
import { CHECKOUT_TOKEN, renderCheckoutPage, renderNotFoundPage } from '../checkout-page/page.js';

/** Own assets only, plus https images for a project's logo. */
export const CHECKOUT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

type Asset = { body: Buffer; type: string };

function loadAssets(): Map<string, Asset> {
  const dir = new URL('../checkout-page/', import.meta.url);
  const read = (name: string) => readFileSync(new URL(name, dir));
  return new Map([
    ['checkout.js', { body: read('checkout.js'), type: 'text/javascript; charset=utf-8' }],
    ['checkout.css', { body: read('checkout.css'), type: 'text/css; charset=utf-8' }],
  ]);
}

function sendHtml(res: Response, status: number, html: string): void {
  res.status(status).type('text/html; charset=utf-8').setHeader('Cache-Control', 'no-store');
  res.send(html);
}

/** The hosted checkout page: `GET /pay/{token}` and its two assets, read once at start-up. */
export function checkoutPageRoutes(): Router {
  const assets = loadAssets();
  const router = Router();

  router.use('/pay', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', CHECKOUT_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });

  router.get('/pay/assets/:name', (req, res) => {
    const asset = assets.get(req.params.name);
    if (!asset) {
      res.status(404).type('text/plain; charset=utf-8').send('Not found');
      return;
    }
    // Revalidated on every load (ETag), so a deployment never leaves a stale script behind.
    res.type(asset.type).setHeader('Cache-Control', 'no-cache');
    res.send(asset.body);
  });

  router.get('/pay/:token', (req, res) => {
    const { token } = req.params;
    if (!CHECKOUT_TOKEN.test(token)) {
      sendHtml(res, 404, renderNotFoundPage());
      return;
    }
    sendHtml(res, 200, renderCheckoutPage(token));
  });

  router.use('/pay', (req, res) => {
    if (req.path.startsWith('/assets/')) {
      res.status(404).type('text/plain; charset=utf-8').send('Not found');
      return;
    }
    sendHtml(res, 404, renderNotFoundPage());
  });

  return router;
}
