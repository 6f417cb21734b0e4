import { Router } from 'express';
import type { Deps } from '../domain/deps.js';
import { rejectPayment, verifyPayment } from '../domain/payments/actions.js';
import { createPayment, createPaymentIdempotently } from '../domain/payments/create-payment.js';
import { requestHash } from '../domain/payments/idempotency.js';
import { getPayment, listPayments } from '../domain/payments/queries.js';
import { checkoutUrl, paymentRecord, verifyResult } from '../domain/payments/record.js';
import type { PaymentRow } from '../domain/payments/types.js';
import { AppError } from '../errors.js';
import { handle, RawJson } from './handle.js';

function idempotencyOf(header: string | string[] | undefined, body: unknown) {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > 255) {
    throw AppError.invalid([{ field: 'Idempotency-Key', message: 'must be 1..255 characters' }]);
  }
  return { key, requestHash: requestHash(body) };
}

export function paymentRoutes(deps: Deps): Router {
  const router = Router();

  router.post(
    '/payments',
    handle(deps, {
      auth: ['project'],
      run: async (actor, { body, headers }) => {
        const idempotency = idempotencyOf(headers['idempotency-key'], body);
        const render = (p: PaymentRow) => JSON.stringify({ ...paymentRecord(p), checkoutUrl: checkoutUrl(deps.config.publicBaseUrl, p.token) });
        if (idempotency) return new RawJson(201, await createPaymentIdempotently(deps, actor, body, { ...idempotency, render }));
        return new RawJson(201, render(await createPayment(deps, actor, body)));
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
      run: async (actor, { params, body }) => {
        const { payment, alreadyVerified } = await verifyPayment(deps, actor, params.id!, body);
        return verifyResult(payment, alreadyVerified);
      },
    }),
  );

  router.post(
    '/payments/:id/reject',
    handle(deps, {
      auth: ['project'],
      run: async (actor, { params, body }) => {
        const reason = (body as { reason?: unknown } | undefined)?.reason;
        return paymentRecord(await rejectPayment(deps, actor, params.id!, reason));
      },
    }),
  );

  return router;
}
