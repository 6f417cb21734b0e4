import { Router } from 'express';
import type { Deps } from '../domain/deps.js';
import { paymentRecord } from '../presenters/payment.js';
import { httpVia } from '../operations/operation.js';
import { runOperation } from '../operations/run.js';
import { simulateDeposit, type Simulation } from '../operations/simulate-deposit.js';
import { handle } from './handle.js';
import { jsonAnswer, keyedRoute, restKey } from './idempotency.js';

const simulationRecord = (result: Simulation) => ({
  simulatedAmount: result.simulatedAmount.toString(),
  bankMessage: { id: result.message.id, status: result.message.status, statusReason: result.message.statusReason },
  payment: paymentRecord(result.payment),
});

export function sandboxRoutes(deps: Deps): Router {
  const router = Router();
  router.post(
    '/sandbox/deposits',
    handle(deps, {
      auth: ['project'],
      run: (actor, { body, headers }) =>
        keyedRoute(
          restKey(headers, '/sandbox/deposits', null, body),
          (r: Simulation) => jsonAnswer(200, simulationRecord(r)),
          (idem) => runOperation(deps, simulateDeposit, actor, { body }, { via: httpVia(actor), idem }),
        ),
    }),
  );
  return router;
}
