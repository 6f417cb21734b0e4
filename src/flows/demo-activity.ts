import { reportCheckoutPayment } from '../domain/checkout/checkout.js';
import { operatorActor, type Actor } from '../domain/auth/actor.js';
import { ensureDemo } from '../domain/demo/demo.js';
import type { Deps } from '../domain/deps.js';
import { createPayment } from '../domain/payments/create-payment.js';
import { expirePayment } from '../domain/payments/expiry.js';
import { cancelCheckout } from '../operations/cancel-checkout.js';
import type { Operation } from '../operations/operation.js';
import { refundPayment } from '../operations/refund-payment.js';
import { rejectPayment } from '../operations/reject-payment.js';
import { runOperation } from '../operations/run.js';
import { simulateDeposit } from '../operations/simulate-deposit.js';

/**
 * A first day of the demo shop (issue 21): payments in every state, a deposit waiting for a
 * decision and one that belongs to no payment, so that a first look at the dashboard shows every
 * page working. Made through the same operations and simulated deposits a shop would use (the
 * audit log says the gateway did it: `via` system); only the expired payment's deadline is moved
 * into the past, as the hours it stands for.
 */
async function seedDemoActivity(deps: Deps, project: Extract<Actor, { kind: 'project' }>): Promise<void> {
  const pay = (amount: number, orderId: string, description: string) =>
    createPayment(deps, project, { amount, orderId, description, callbackUrl: 'https://example.com/demo-return' });
  const operate = <I, L, R>(op: Operation<I, L, R>, id: string, body?: unknown) => runOperation(deps, op, project, { id, body }, { via: 'system' });
  const simulate = (paymentId: string, outcome: string) => runOperation(deps, simulateDeposit, project, { body: { paymentId, outcome } }, { via: 'system' });

  const paid = await pay(1_250_000, 'demo-1001', 'دو جلد کتاب');
  await simulate(paid.id, 'match');
  const refunded = await pay(480_000, 'demo-1002', 'تی‌شرت');
  await simulate(refunded.id, 'match');
  await operate(refundPayment, refunded.id, { amount: 80_000, destinationCard: '6037991234567893', note: 'اختلاف سایز (نمونه)' });

  await pay(350_000, 'demo-1003', 'ماگ');
  const withoutCode = await pay(900_000, 'demo-1004', 'هدفون');
  await simulate(withoutCode.id, 'base_amount');
  const slip = await pay(2_000_000, 'demo-1005', 'کفش');
  await simulate(slip.id, 'unit_slip');
  const reported = await pay(275_000, 'demo-1006', 'کلاه');
  await reportCheckoutPayment(deps, reported.token, { payerCardLast4: '4321', payerTrackingNumber: '778899' });

  const rejected = await pay(150_000, 'demo-1007', 'جوراب');
  await operate(rejectPayment, rejected.id, { reason: 'ناموجود در انبار' });
  const canceled = await pay(620_000, 'demo-1008', 'کیف');
  await operate(cancelCheckout, canceled.token);
  const expired = await pay(730_000, 'demo-1009', 'کتاب صوتی');
  await deps.prisma.payment.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  await expirePayment(deps, expired.id);
}

/** The demo (domain/demo), and on its first creation a day of activity in it. */
export async function startDemo(deps: Deps, actor: Actor = operatorActor) {
  const demo = await ensureDemo(deps, actor);
  if (demo.created) {
    // The demo's activity is a convenience: a failure there is reported, never a reason not to start.
    await seedDemoActivity(deps, { kind: 'project', projectId: demo.projectId, merchantId: demo.merchantId, sandbox: true, keyId: demo.apiKeyId }).catch((err: unknown) =>
      deps.log.warn({ err }, 'demo activity not seeded'),
    );
  }
  return demo;
}
