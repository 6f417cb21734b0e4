import { readFileSync } from 'node:fs';
import { fromRoot } from '../paths.js';
import { Router } from 'express';
import { themeCss } from '../checkout-page/brand.js';
import { CHECKOUT_TOKEN, renderCheckoutPage } from '../checkout-page/page.js';
import { renderNotFoundPage } from '../checkout-page/shell.js';
import { getCheckout } from '../domain/checkout/checkout.js';
import type { Deps } from '../domain/deps.js';
import { consumePublicBudget, pageError, pageHeaders, sendHtml } from './hosted-pages.js';

export { CHECKOUT_CSP } from './hosted-pages.js';

type Asset = { body: Buffer; type: string };

const ASSET_TYPES: Record<string, string> = {
  'checkout.js': 'text/javascript; charset=utf-8',
  'link.js': 'text/javascript; charset=utf-8',
  'checkout.css': 'text/css; charset=utf-8',
};

function loadAssets(): Map<string, Asset> {
  return new Map(Object.entries(ASSET_TYPES).map(([name, type]) => [name, { body: readFileSync(fromRoot('src/checkout-page', name)), type }]));
}

/** The hosted checkout page `GET /pay/{token}`, painted from the checkout view, and the pages' assets. */
export function checkoutPageRoutes(deps: Deps): Router {
  const assets = loadAssets();
  const router = Router();

  router.use('/pay', pageHeaders);

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

  router.get('/pay/theme/:file', (req, res) => {
    const css = /^[0-9a-f]{6}\.css$/.test(req.params.file) ? themeCss(req.params.file.slice(0, 6)) : null;
    if (!css) {
      res.status(404).type('text/plain; charset=utf-8').send('Not found');
      return;
    }
    res.type('text/css; charset=utf-8').setHeader('Cache-Control', 'public, max-age=86400');
    res.send(css);
  });

  router.get('/pay/:token', async (req, res, next) => {
    const { token } = req.params;
    if (!CHECKOUT_TOKEN.test(token)) return sendHtml(res, 404, renderNotFoundPage());
    try {
      await consumePublicBudget(deps, req.ip);
      sendHtml(res, 200, renderCheckoutPage(await getCheckout(deps, token)));
    } catch (err) {
      pageError(res, next, err);
    }
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
