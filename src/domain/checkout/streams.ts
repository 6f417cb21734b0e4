import { AppError } from '../../errors.js';
import type { PaymentChange } from '../../events/payment-notifier.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { getPayment } from '../payments/queries.js';
import { loadView, paymentIdForToken } from './checkout.js';
import type { CheckoutView } from './view.js';

function notifierOf(deps: Deps) {
  if (!deps.notifier) throw new AppError('unavailable', 'Subscriptions are served by API processes.');
  return deps.notifier;
}

/**
 * Re-reads on every change it hears of; stops listening when the subscriber goes away, or after a
 * value `last` says nothing can follow.
 */
async function* follow<T>(
  changes: AsyncIterableIterator<PaymentChange>,
  first: () => Promise<T>,
  next: (c: PaymentChange) => Promise<T | null>,
  last: (value: T) => boolean = () => false,
) {
  try {
    const initial = await first();
    yield initial;
    if (last(initial)) return;
    for await (const change of changes) {
      const value = await next(change);
      if (value === null) continue;
      yield value;
      if (last(value)) return;
    }
  } finally {
    await changes.return?.();
  }
}

/** Confirmed, canceled and rejected are final; expired is final once its late window has closed. */
function isSettled(view: CheckoutView): boolean {
  if (view.status === 'expired') return Date.parse(view.lateUntil!) < Date.now();
  return view.status !== 'pending';
}

/** Public: the checkout view now, then after every change, from whichever process made it; it completes once settled. */
export async function checkoutStatusStream(deps: Deps, token: string) {
  const notifier = notifierOf(deps);
  const id = await paymentIdForToken(deps.prisma, token);
  const changes = notifier.changes(`payment:${id}`);
  const view = () => loadView(deps.prisma, id);
  return follow(changes, view, view, isSettled);
}

/** Project key: one payment's record after every change. */
export async function paymentUpdatedStream(deps: Deps, actor: Actor, paymentId: string) {
  const notifier = notifierOf(deps);
  const payment = await getPayment(deps, actor, paymentId);
  const changes = notifier.changes(`payment:${payment.id}`);
  const read = () => deps.prisma.payment.findUniqueOrThrow({ where: { id: payment.id } });
  return follow(changes, read, read);
}

/** Project key: every payment event of the project (the webhook events), as they commit. */
export async function paymentEventsStream(deps: Deps, actor: Actor) {
  const { projectId } = requireActor(actor, 'project');
  const changes = notifierOf(deps).changes(`project:${projectId}`);
  return (async function* () {
    try {
      for await (const change of changes) {
        if (!change.eventId) continue;
        const event = await deps.prisma.event.findUnique({ where: { id: change.eventId } });
        if (event) yield event;
      }
    } finally {
      await changes.return?.();
    }
  })();
}
