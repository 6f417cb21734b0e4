import { AppError } from '../../errors.js';
import type { Feed } from '../../events/feed.js';
import type { FeedKey, PaymentChange, Signal } from '../../events/payment-notifier.js';
import type { Actor } from '../auth/actor.js';
import { requireActor } from '../auth/actor.js';
import { credentialStillValid } from '../auth/credential-live.js';
import type { Deps } from '../deps.js';
import { isSettled } from '../payments/state-machine.js';
import { callerScope } from '../auth/scope.js';
import { getPayment } from '../payments/queries.js';
import { loadView, paymentIdForToken } from './checkout.js';

/** The last value of a stream whose credential was revoked: the door renders it as its error. */
export class StreamRefused {
  constructor(readonly error: AppError) {}
}

function notifierOf(deps: Deps) {
  if (!deps.notifier) throw new AppError('unavailable', 'Subscriptions are served by API processes.');
  return deps.notifier;
}

type Follow<T> = {
  feed: Feed<Signal>;
  /** The value to send first (none for event streams). */
  first?: () => Promise<T>;
  /** The value a change produces, or null to send nothing. */
  next: (c: PaymentChange) => Promise<T | null>;
  /** After this value nothing can follow: the stream completes. */
  last?: (value: T) => boolean;
  deps: Deps;
  actor: Actor;
};

const DONE = { done: true as const, value: undefined };

/**
 * A subscription's values: re-reads on every change it hears of, ends with `StreamRefused` once the
 * caller's credential is revoked, and releases its feed the moment the consumer leaves (`return`
 * works even while a read is waiting, which an async generator cannot do). A class rather than
 * closures: thousands stay open and idle at once, and each should hold little more than its feed.
 */
class FollowStream<T> implements AsyncIterableIterator<T | StreamRefused> {
  /** Dropped once sent: an idle stream keeps no first view. */
  private first: (() => Promise<T>) | undefined;
  private finished = false;

  constructor(private readonly spec: Follow<T>) {
    this.first = spec.first;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  async next(): Promise<IteratorResult<T | StreamRefused>> {
    if (this.finished) return DONE;
    const first = this.first;
    if (first) {
      this.first = undefined;
      return this.emit(await first());
    }
    const { feed, deps, actor } = this.spec;
    for (;;) {
      const signal = await feed.next();
      if (signal.done || this.finished) return DONE;
      if (signal.value.kind === 'credentials') {
        if (await credentialStillValid(deps, actor)) continue;
        this.finish();
        return { done: false, value: new StreamRefused(new AppError('unauthorized', 'The credential of this subscription was revoked or deactivated.')) };
      }
      const value = await this.spec.next(signal.value);
      if (this.finished) return DONE;
      if (value !== null) return this.emit(value);
    }
  }

  async return(): Promise<IteratorResult<T | StreamRefused>> {
    this.finish();
    return DONE;
  }

  private emit(value: T): IteratorResult<T> {
    if (this.spec.last?.(value)) this.finish();
    return { done: false, value };
  }

  private finish() {
    this.finished = true;
    this.spec.feed.close();
  }
}

function feedFor(deps: Deps, actor: Actor, key: FeedKey | FeedKey[]) {
  const keys = Array.isArray(key) ? key : [key];
  if (actor.kind === 'public') return notifierOf(deps).feed(keys);
  const feed = notifierOf(deps).feed([...keys, 'credentials']);
  // A revocation announced between authentication and this registration would be missed: check once now.
  feed.push({ kind: 'credentials' });
  return feed;
}

/** Public: the checkout view now, then after every change, from whichever process made it; it completes once settled. */
export async function checkoutStatusStream(deps: Deps, token: string) {
  notifierOf(deps);
  const id = await paymentIdForToken(deps.prisma, token);
  const actor: Actor = { kind: 'public' };
  const view = () => loadView(deps.prisma, id);
  const settled = (v: Awaited<ReturnType<typeof view>>) => isSettled({ status: v.status, lateUntil: v.lateUntil }, new Date());
  return new FollowStream({ feed: feedFor(deps, actor, `payment:${id}`), first: view, next: view, last: settled, deps, actor });
}

/** Project key: one payment's record after every change. */
export async function paymentUpdatedStream(deps: Deps, actor: Actor, paymentId: string) {
  notifierOf(deps);
  const payment = await getPayment(deps, actor, paymentId);
  const read = () => deps.prisma.payment.findUniqueOrThrow({ where: { id: payment.id } });
  return new FollowStream({ feed: feedFor(deps, actor, `payment:${payment.id}`), first: read, next: read, deps, actor });
}

/**
 * Every payment event (the webhook events) as they commit: a project key its project's; a merchant
 * credential those of all its projects (as they are when the subscription starts), or one's.
 */
export async function paymentEventsStream(deps: Deps, actor: Actor, projectId?: string | null) {
  const scope = callerScope(actor, projectId);
  const projects = scope.none ? [] : await deps.prisma.project.findMany({ where: { merchantId: scope.merchantId, ...(scope.projectId ? { id: scope.projectId } : {}) }, select: { id: true } });
  const next = async (change: PaymentChange) => (change.eventId ? deps.prisma.event.findUnique({ where: { id: change.eventId } }) : null);
  return new FollowStream({ feed: feedFor(deps, actor, projects.map((p): FeedKey => `project:${p.id}`)), next, deps, actor });
}
