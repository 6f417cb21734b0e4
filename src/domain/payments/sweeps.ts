import { isConnectionFailure } from '../../db/errors.js';
import type { Deps } from '../deps.js';
import { sweepCandidates, type Sweep } from './store/locks.js';

/**
 * When a sweep's batch transaction fails for a reason a retry does not cure (a guard of the database
 * refusing one payment, a bug in one row's data), every payment of that batch would wait behind the
 * one that fails, on every tick: one bad row would stop expiry, or the return of fees, for everyone.
 * So the batch's payments are taken one by one instead, each in its own transaction (`run`, the
 * same rules as the batch): the others go through, the failing one is logged with its id at error
 * level on each tick until someone looks, and the tick ends there (the failing payment would head
 * the next batch again). The database being away is not such a reason: that error goes back to the
 * ticker, which tries again. Returns how many `run` reported done.
 */
export async function oneByOne(
  deps: Deps,
  sweep: Sweep,
  limit: number,
  batchError: unknown,
  run: (paymentId: string) => Promise<boolean>,
): Promise<{ tried: number; done: number; failed: number }> {
  // The database away (a restart, a failover; PgBouncer's "server login has been failing" is SQLSTATE
  // class 08, connection exception) is no bad row: the ticker tries again, backing off.
  if (isConnectionFailure(batchError)) throw batchError;
  deps.log.error({ err: batchError, sweep }, `${sweep} sweep: a batch failed; its payments one by one`);
  const ids = await sweepCandidates(deps.prisma, sweep, limit);
  let done = 0;
  let failed = 0;
  for (const paymentId of ids) {
    try {
      if (await run(paymentId)) done++;
    } catch (err) {
      failed++;
      deps.log.error({ err, sweep, paymentId }, `${sweep} sweep: this payment failed on its own; the others went on`);
    }
  }
  return { tried: ids.length, done, failed };
}
