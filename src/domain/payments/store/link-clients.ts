import { statement, type Queryable } from '../../../db/statement.js';

/** One payer of one payment link: the address its payments came from (migration link_client_address). */
export type LinkClient = { linkId: string; address: string };

export type LinkClientHeld = { pending: number; earliestExpiresAt: Date | null; now: Date };

// Until commit, so concurrent creates of one client on one link, in any API process, count one after another.
const lock = statement<[string], Record<string, never>>(
  'link-client-lock',
  "SELECT pg_advisory_xact_lock(hashtextextended('link-client:' || $1, 0))",
);

// A pending payment past its expiresAt has ended, whether or not the expiry sweep has reached it yet. The
// clock is read now, not at BEGIN: the lock may have been waited for.
const held = statement<[string, string], { pending: number; earliest_expires_at: Date | null; now: Date }>(
  'link-client-held',
  `SELECT count(*)::int AS pending, min(expires_at) AS earliest_expires_at, clock_timestamp() AS now FROM payments
    WHERE link_id = $1 AND link_client_address = $2 AND status = 'pending' AND expires_at > clock_timestamp()`,
);

const stamp = statement<[string, string], Record<string, never>>('link-client-stamp', 'UPDATE payments SET link_client_address = $2 WHERE id = $1');

/**
 * Inside the create's transaction, before it allocates: takes the client's lock on the link, then
 * counts its pending payments of that link in a snapshot taken under the lock (its own statement).
 */
export async function lockLinkClient(db: Queryable, client: LinkClient): Promise<LinkClientHeld> {
  await lock(db, `${client.linkId}:${client.address}`);
  const [row] = await held(db, client.linkId, client.address);
  return { pending: row!.pending, earliestExpiresAt: row!.earliest_expires_at, now: row!.now };
}

/** Records on the new payment the address it came from, in the same transaction. */
export async function stampLinkClient(db: Queryable, paymentId: string, client: LinkClient): Promise<void> {
  await stamp(db, paymentId, client.address);
}
