import { cancelCheckout, reportCheckoutPayment } from '../domain/checkout/checkout.js';
import { operatorActor, type Actor } from '../domain/auth/actor.js';
import { ensureDemo } from '../domain/demo/demo.js';
import type { Deps } from '../domain/deps.js';
import { simulateDeposit } from './simulate-deposit.js';
import { rejectPayment } from '../domain/payments/actions.js';
import { createPayment } from '../domain/payments/create-payment.js';
import { expirePayment } from '../domain/payments/expiry.js';
import { recordRefund } from '../domain/refunds/refunds.js';

/**
 * A first day of the demo shop (issue 21): payments in every state, a deposit waiting for a
 * decision and one that belongs to no payment, so that a first look at the dashboard shows every
 * page working. Made through the same domain functions and simulated deposits a shop would use;
 * only the expired payment's deadline is moved into the past, as the hours it stands for.
 */
async function seedDemoActivity(deps: Deps, project: Extract<Actor, { kind: 'project' }>): Promise<void> {
  const pay = (amount: number, orderId: string, description: string) =>
    createPayment(deps, project, { amount, orderId, description, callbackUrl: 'https://example.com/demo-return' });
  const simulate = (paymentId: string, outcome: string) => simulateDeposit(deps, project, { paymentId, outcome });

  const paid = await pay(1_250_000, 'demo-1001', 'دو جلد کتاب');
  await simulate(paid.id, 'match');
  const refunded = await pay(480_000, 'demo-1002', 'تی‌شرت');
  await simulate(refunded.id, 'match');
  await recordRefund(deps, project, refunded.id, { amount: 80_000, destinationCard: '6037991234567893', note: 'اختلاف سایز (نمونه)' });

  await pay(350_000, 'demo-1003', 'ماگ');
  const withoutCode = await pay(900_000, 'demo-1004', 'هدفون');
  await simulate(withoutCode.id, 'base_amount');
  const slip = await pay(2_000_000, 'demo-1005', 'کفش');
  await simulate(slip.id, 'unit_slip');
  const reported = await pay(275_000, 'demo-1006', 'کلاه');
  await reportCheckoutPayment(deps, reported.token, { payerCardLast4: '4321', payerTrackingNumber: '778899' });

  const rejected = await pay(150_000, 'demo-1007', 'جوراب');
  await rejectPayment(deps, project, rejected.id, 'ناموجود در انبار');
  const canceled = await pay(620_000, 'demo-1008', 'کیف');
  await cancelCheckout(deps, canceled.token);
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
