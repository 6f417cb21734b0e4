import { Router } from 'express';
import type { Deps } from '../domain/deps.js';
import { paymentRecord } from '../domain/payments/record.js';
import { simulateDeposit } from '../flows/simulate-deposit.js';
import { handle } from './handle.js';

export function sandboxRoutes(deps: Deps): Router {
  const router = Router();
  router.post(
    '/sandbox/deposits',
    handle(deps, {
      auth: ['project'],
      run: async (actor, { body }) => {
        const result = await simulateDeposit(deps, actor, body);
        return {
          simulatedAmount: result.simulatedAmount.toString(),
          bankMessage: { id: result.message.id, status: result.message.status, statusReason: result.message.statusReason },
          payment: paymentRecord(result.payment),
        };
      },
    }),
  );
  return router;
}
