import { Router } from 'express';
import type { Deps } from '../domain/deps.js';
import { listRefunds, recordRefund, refundRecord } from '../domain/refunds/refunds.js';
import { handle, RawJson } from './handle.js';

/**
 * Refunds of a payment (CONTRACT "Exceptions"): records of money the merchant paid back from their
 * bank. A project key for its project's payments; the merchant key for any of its projects'
 * (deciding does not need the shop server's key).
 */
export function refundRoutes(deps: Deps): Router {
  const router = Router();

  router.post(
    '/payments/:id/refunds',
    handle(deps, {
      auth: ['project', 'merchant', 'user'],
      run: async (actor, { params, body }) => {
        const { refund } = await recordRefund(deps, actor, params.id!, body);
        return new RawJson(201, JSON.stringify(refundRecord(refund)));
      },
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
