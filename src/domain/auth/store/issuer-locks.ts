import type { Tx } from '../../../db/prisma.js';

// The namespace (hashtextextended's seed) of credential issuers' advisory locks; match scopes,
// idempotency keys and the evidence chain use 0, 1 and 2; a card's allocations 5 (card_lock_key), an amount being drawn 6 (draw_code).
const ISSUER_LOCK_SEED = 3;

/** Until commit: the issuers of one key (a project's API keys, a merchant's devices) queue on it, one after another. */
export async function lockIssuer(tx: Tx, key: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, ${ISSUER_LOCK_SEED}))`;
}
