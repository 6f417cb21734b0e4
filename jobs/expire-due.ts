import type { Deps } from '../src/domain/deps.js';
import { expireDuePayments } from '../src/domain/payments/expiry-batch.js';
import { every, type Ticker } from '../src/queue/ticker.js';

/** How often a worker process looks for payments past their deadline (docs/integration.md "1. Create a payment": expired within 5 s). */
const EXPIRY_SWEEP_MS = 500;

/**
 * The expiry sweep, in every worker process: at start (catching up whatever fell due while no
 * worker ran) and every EXPIRY_SWEEP_MS after, every pending payment past its `expiresAt` is
 * expired, in batches of one transaction each (`expireDueBatch`), EXPIRY_CONCURRENCY payments in
 * flight over two lanes. Nothing is enqueued per payment: the deadline is the row's `expires_at`,
 * read through payments_pending_expiry_idx, so a create writes no job, a payment confirmed in time
 * costs the worker nothing, and a lost queue cannot leave a payment pending. Processes and lanes
 * split the due payments (rows are claimed with SKIP LOCKED), and an idle tick is one index probe.
 */
export function startExpirySweep(deps: Deps): Ticker {
  const lanes = Math.min(2, deps.config.expiryConcurrency);
  const batch = Math.ceil(deps.config.expiryConcurrency / lanes);
  return every(EXPIRY_SWEEP_MS, () => expireDuePayments(deps, { lanes, batch }), deps.log, 'expiry sweep');
}
