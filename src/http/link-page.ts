import { Router } from 'express';
import { renderLinkPage } from '../checkout-page/link-page.js';
import { renderNotFoundPage } from '../checkout-page/shell.js';
import type { Deps } from '../domain/deps.js';
import { getPublicLink } from '../domain/links/public.js';
import { consumePublicBudget, pageError, pageHeaders, sendHtml } from './hosted-pages.js';

const LINK_NOT_FOUND = 'این پیوند پرداخت وجود ندارد یا دیگر فعال نیست. لطفاً با فروشنده تماس بگیرید.';

/** The hosted page of a payment link, `GET /l/{slug}`; an unknown or inactive slug is a Persian 404. */
export function linkPageRoutes(deps: Deps): Router {
  const router = Router();
  router.use('/l', pageHeaders);
  router.get('/l/:slug', async (req, res, next) => {
    try {
      await consumePublicBudget(deps, req.ip);
      sendHtml(res, 200, renderLinkPage(await getPublicLink(deps, req.params.slug)));
    } catch (err) {
      pageError(res, next, err, LINK_NOT_FOUND);
    }
  });
  router.use('/l', (_req, res) => sendHtml(res, 404, renderNotFoundPage(LINK_NOT_FOUND)));
  return router;
}
