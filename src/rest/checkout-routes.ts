import { Router } from 'express';
import { getCheckout, reportCheckoutPayment } from '../domain/checkout/checkout.js';
import type { Deps } from '../domain/deps.js';
import type { CheckoutView } from '../domain/checkout/view.js';
import { createLinkPayment, getPublicLink, type LinkPaymentView } from '../domain/links/public.js';
import { cancelCheckout } from '../operations/cancel-checkout.js';
import { httpVia } from '../operations/operation.js';
import { runOperation } from '../operations/run.js';
import { handle } from './handle.js';
import { jsonAnswer, keyedRoute, restKey } from './idempotency.js';

// Public routes answer whoever calls; a merchant's server may look at a checkout with its key too.
const ANYONE: ('public' | 'merchant' | 'project' | 'device')[] = ['public', 'merchant', 'project', 'device'];

const viewAnswer = (view: CheckoutView) => jsonAnswer(200, view);

/** The payer's side: public routes addressed by payment token or link slug, limited per IP. */
export function checkoutRoutes(deps: Deps): Router {
  const router = Router();
  router.get('/checkout/:token', handle(deps, { auth: ANYONE, run: (_a, { params }) => getCheckout(deps, params.token!) }));
  // A payer's retried tap: keyed in the token's payment's key space (the token is not stored).
  router.post(
    '/checkout/:token/report',
    handle(deps, {
      auth: ANYONE,
      run: (_a, { params, body, headers }) =>
        keyedRoute(restKey(headers, '/checkout/{token}/report', null, body), viewAnswer, (idem) => reportCheckoutPayment(deps, params.token!, body, idem)),
    }),
  );
  router.post(
    '/checkout/:token/cancel',
    handle(deps, {
      auth: ANYONE,
      run: (actor, { params, body, headers }) =>
        keyedRoute(restKey(headers, '/checkout/{token}/cancel', null, body), viewAnswer, (idem) =>
          runOperation(deps, cancelCheckout, actor, { id: params.token! }, { via: httpVia(actor), idem }),
        ),
    }),
  );
  // The OpenAPI document's `PaymentLink` exactly; the link's unit (`currency`) is for its page and GraphQL.
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
    handle(deps, {
      auth: ANYONE,
      run: (actor, { params, body, headers }) =>
        keyedRoute(
          restKey(headers, '/links/{slug}/payments', null, body),
          (view: LinkPaymentView) => jsonAnswer(201, view),
          (idem) => createLinkPayment(deps, actor, params.slug!, body, idem),
        ),
    }),
  );
  return router;
}
