import { Router } from 'express';
import { cancelCheckout, getCheckout, reportCheckoutPayment } from '../domain/checkout/checkout.js';
import type { Deps } from '../domain/deps.js';
import { createLinkPayment, getPublicLink } from '../domain/links/public.js';
import { handle } from './handle.js';

// Public routes answer whoever calls; a merchant's server may look at a checkout with its key too.
const ANYONE: ('public' | 'merchant' | 'project' | 'device')[] = ['public', 'merchant', 'project', 'device'];

/** The payer's side: public routes addressed by payment token or link slug, limited per IP. */
export function checkoutRoutes(deps: Deps): Router {
  const router = Router();
  router.get('/checkout/:token', handle(deps, { auth: ANYONE, run: (_a, { params }) => getCheckout(deps, params.token!) }));
  router.post(
    '/checkout/:token/report',
    handle(deps, { auth: ANYONE, run: (_a, { params, body }) => reportCheckoutPayment(deps, params.token!, body) }),
  );
  router.post('/checkout/:token/cancel', handle(deps, { auth: ANYONE, run: (_a, { params }) => cancelCheckout(deps, params.token!) }));
  // The contract's shape exactly; the link's unit (`currency`) is for its page and GraphQL.
  router.get(
    '/links/:slug',
    handle(deps, {
      auth: ANYONE,
      run: async (_a, { params }) => {
        const { currency: _unit, ...view } = await getPublicLink(deps, params.slug!);
        return view;
      },
    }),
  );
  router.post(
    '/links/:slug/payments',
    handle(deps, { auth: ANYONE, status: 201, run: (actor, { params, body }) => createLinkPayment(deps, actor, params.slug!, body) }),
  );
  return router;
}
