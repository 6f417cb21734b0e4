import { lockLinkClient, stampLinkClient, type LinkClient, type LinkClientHeld } from '../payments/store/link-clients.js';
import type { Queryable } from '../../db/statement.js';
import ipaddr from 'ipaddr.js';
import { AppError } from '../../errors.js';
import type { PaymentRow } from '../payments/types.js';

export type { LinkClient } from '../payments/store/link-clients.js';

/**
 * docs/security.md "Payment links": payment links are public, so one client address holds at most this
 * many pending payments of one link at a time; it may start another once one of them ends.
 */
export const MAX_PENDING_PER_LINK_CLIENT = 3;

const MIN_RETRY_AFTER_S = 1;

/** One IPv6 subscriber gets a whole /64 (every address in it is theirs): counted as one client. */
const IPV6_CLIENT_PREFIX = 64;

/**
 * The client a link's caps count: an IPv4 address as it is; an IPv6 address by its /64 network (an
 * IPv4-mapped one as its IPv4), so one payer cannot multiply their allowance by rotating addresses.
 */
export function linkClientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = (parsed as ipaddr.IPv6).toByteArray().map((b, i) => (i < IPV6_CLIENT_PREFIX / 8 ? b : 0));
  return `${ipaddr.fromByteArray(bytes).toString()}/${IPV6_CLIENT_PREFIX}`;
}

/** Over the cap: 429 `rate_limited`, retry once the earliest of the client's pending payments expires. */
export function linkClientRefusal(held: LinkClientHeld): AppError | null {
  if (held.pending < MAX_PENDING_PER_LINK_CLIENT) return null;
  const untilExpiry = held.earliestExpiresAt ? Math.ceil((held.earliestExpiresAt.getTime() - held.now.getTime()) / 1000) : 0;
  const retryAfterSeconds = Math.max(MIN_RETRY_AFTER_S, untilExpiry);
  return new AppError(
    'rate_limited',
    `This address already holds ${held.pending} pending payments of this link (at most ${MAX_PENDING_PER_LINK_CLIENT}); retry in ${retryAfterSeconds} s, or finish or cancel one.`,
    { retryAfterSeconds },
  );
}

/**
 * The cap, enforced in the database: called first in the create's transaction, it holds the client's
 * lock on the link until commit and refuses a payment over the cap before anything is allocated.
 */
export async function admitLinkClient(db: Queryable, client: LinkClient): Promise<void> {
  const refusal = linkClientRefusal(await lockLinkClient(db, client));
  if (refusal) throw refusal;
}

/** Called in the same transaction once the payment exists, so the next count sees it. */
export async function recordLinkClient(db: Queryable, payment: PaymentRow, client: LinkClient): Promise<PaymentRow> {
  await stampLinkClient(db, payment.id, client);
  return { ...payment, linkClientAddress: client.address };
}
