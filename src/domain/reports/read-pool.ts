import type pg from 'pg';
import type { PrismaClient } from '../../db/prisma.js';
import type { Deps } from '../deps.js';

/*
 * Where reads that may lag go (DATABASE_READ_URL, a streaming replica, serves exports, stats and
 * dashboard lists). The rule, with the reasons, is in docs/operations.md "Read replica"; in short:
 *
 * - On the replica (when set and usable: reachable, streaming, lag under
 *   DATABASE_READ_MAX_LAG_SECONDS): `GET /v1/exports/*`, `paymentStats`, and the GraphQL lists the
 *   dashboard pages through (`payments`, `bankMessages`, `auditEvents`). They may be behind by the
 *   replica's lag; the dashboard's rows are kept current by subscriptions, which read the primary.
 * - Never on the replica: anything that decides money or writes (creates, matching, verify,
 *   confirmations, expiry, webhooks, credentials, rate limits), single-object reads (`payment(id)`,
 *   `GET /v1/payments/{id}`, checkout, verify), REST `GET /v1/payments` (a shop's own reads after
 *   its writes), and whatever a mutation returns. Workers have no replica at all.
 *
 * Only these two functions pick the replica; a new caller is a decision about that rule.
 */

/** The pool for a report or export read: the replica when usable, else the process's pool. */
export function readPool(deps: Deps): pg.Pool {
  return deps.reads?.usable ? deps.reads.pool : deps.pool;
}

/** Prisma for a dashboard list (GraphQL connections): over the replica when usable, else the primary. */
export function readPrisma(deps: Deps): PrismaClient {
  return deps.reads?.usable ? deps.reads.prisma : deps.prisma;
}
