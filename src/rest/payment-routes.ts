import { Router } from 'express';
import type { Deps } from '../domain/deps.js';
import { verifyPayment } from '../domain/payments/actions.js';
import { createPayment, createPaymentIdempotently } from '../domain/payments/create-payment.js';
import { getPayment, listPayments } from '../domain/payments/queries.js';
import { checkoutUrl } from '../domain/payments/fields.js';
import type { PaymentRow } from '../domain/payments/types.js';
import { paymentRecord, verifyResult } from '../presenters/payment.js';
import { httpVia } from '../operations/operation.js';
import { rejectPayment } from '../operations/reject-payment.js';
import { runOperation } from '../operations/run.js';
import { handle, RawJson } from './handle.js';
import { jsonAnswer, keyedRoute, restKey } from './idempotency.js';

export function paymentRoutes(deps: Deps): Router {
  const router = Router();

  router.post(
    '/payments',
    handle(deps, {
      auth: ['project'],
      run: async (actor, { body, headers }) => {
        const keyed = restKey(headers, '/payments', null, body);
        const render = (p: PaymentRow) => jsonAnswer(201, { ...paymentRecord(p), checkoutUrl: checkoutUrl(deps.config.publicBaseUrl, p.token) });
        if (keyed) {
          const answer = await createPaymentIdempotently(deps, actor, body, { ...keyed, render });
          return new RawJson(answer.status, answer.body);
        }
        const created = render(await createPayment(deps, actor, body));
        return new RawJson(created.status, created.body);
      },
    }),
  );

  router.get(
    '/payments',
    handle(deps, {
      auth: ['project'],
      run: async (actor, { query }) => {
        const page = await listPayments(deps, actor, query);
        return { ...page, items: page.items.map(paymentRecord) };
      },
    }),
  );

  router.get(
    '/payments/:id',
    handle(deps, { auth: ['project'], run: async (actor, { params }) => paymentRecord(await getPayment(deps, actor, params.id!)) }),
  );

  router.post(
    '/payments/:id/verify',
    handle(deps, {
      auth: ['project'],
      run: (actor, { params, body, headers }) =>
        keyedRoute(
          restKey(headers, '/payments/{id}/verify', params.id!, body),
          (v: { payment: PaymentRow; alreadyVerified: boolean }) => jsonAnswer(200, verifyResult(v.payment, v.alreadyVerified)),
          (idem) => verifyPayment(deps, actor, params.id!, body, idem),
        ),
    }),
  );

  router.post(
    '/payments/:id/reject',
    handle(deps, {
      auth: ['project'],
      run: (actor, { params, body, headers }) => {
        const reason = (body as { reason?: unknown } | undefined)?.reason;
        return keyedRoute(
          restKey(headers, '/payments/{id}/reject', params.id!, body),
          (p: PaymentRow) => jsonAnswer(200, paymentRecord(p)),
          (idem) => runOperation(deps, rejectPayment, actor, { id: params.id!, body: { reason } }, { via: httpVia(actor), idem }),
        );
      },
    }),
  );

  return router;
}
