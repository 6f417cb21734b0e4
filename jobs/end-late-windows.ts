import type { Deps } from '../src/domain/deps.js';
import { endOverdueLateWindows } from '../src/domain/payments/expiry.js';
import { every, type Ticker } from '../src/queue/ticker.js';

/** How often a worker process gives back the fees whose late window has ended. */
const LATE_WINDOW_SWEEP_MS = 1_000;

/**
 * The late-window sweep, in every worker process: at start and every LATE_WINDOW_SWEEP_MS after,
 * every live fee still reserved past its payment's `lateUntil` goes back (a payment still pending
 * then is expired first), in batches of one transaction each (`endLateWindowsBatch`). Nothing is
 * enqueued per payment: the deadline is the row's `late_until`, read through
 * payments_reserved_late_idx, so an expiry writes no job and a lost queue cannot keep a fee
 * reserved. Processes split the work (rows are claimed with SKIP LOCKED); an idle tick is one index
 * probe. The minute `payment-sweep` runs the same function behind it.
 */
export function startLateWindowSweep(deps: Deps): Ticker {
  return every(LATE_WINDOW_SWEEP_MS, () => endOverdueLateWindows(deps), deps.log, 'late-window sweep');
}
