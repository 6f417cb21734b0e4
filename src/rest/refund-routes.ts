import { Router } from 'express';
import type { Deps } from '../domain/deps.js';
import { listRefunds, type RecordedRefund } from '../domain/refunds/refunds.js';
import { httpVia } from '../operations/operation.js';
import { refundPayment } from '../operations/refund-payment.js';
import { runOperation } from '../operations/run.js';
import { refundRecord } from '../presenters/refund.js';
import { handle } from './handle.js';
import { jsonAnswer, keyedRoute, restKey } from './idempotency.js';

/**
 * Refunds of a payment (docs/exceptions.md "12. Refunding a confirmed payment"): records of money
 * the merchant paid back from their bank. A project key for its project's payments; the merchant
 * key for any of its projects' (deciding does not need the shop server's key).
 */
export function refundRoutes(deps: Deps): Router {
  const router = Router();

  router.post(
    '/payments/:id/refunds',
    handle(deps, {
      auth: ['project', 'merchant', 'user'],
      // A retried refund is recorded once: the key is claimed in the refund's own transaction.
      run: (actor, { params, body, headers }) =>
        keyedRoute(
          restKey(headers, '/payments/{id}/refunds', params.id!, body),
          (r: RecordedRefund) => jsonAnswer(201, refundRecord(r.refund)),
          (idem) => runOperation(deps, refundPayment, actor, { id: params.id!, body }, { via: httpVia(actor), idem }),
        ),
    }),
  );

  router.get(
    '/payments/:id/refunds',
    handle(deps, {
      auth: ['project', 'merchant', 'user'],
      run: async (actor, { params }) => ({ items: (await listRefunds(deps, actor, params.id!)).map(refundRecord) }),
    }),
  );

  return router;
}
