import { Prisma } from '../generated/prisma/client.js';
import { AppError } from '../errors.js';

type PgLikeError = { code?: string; constraint?: string; message?: string; severity?: string };

/** The Postgres error behind a Prisma or node-postgres error, if there is one. */
function pgError(err: unknown): PgLikeError | undefined {
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    const meta = err.meta as { driverAdapterError?: { cause?: { originalCode?: string; severity?: string; constraint?: { index?: string } } } } | undefined;
    const cause = meta?.driverAdapterError?.cause;
    if (err.code === 'P2002') return { code: '23505', constraint: cause?.constraint?.index };
    if (err.code === 'P2003') return { code: '23503' };
    if (err.code === 'P2034') return { code: '40001' };
    return cause?.originalCode ? { code: cause.originalCode, severity: cause.severity } : undefined;
  }
  if (typeof err === 'object' && err !== null && typeof (err as PgLikeError).code === 'string') {
    return err as PgLikeError;
  }
  return undefined;
}

/** The SQLSTATE behind an error, if a database raised it. */
export function sqlState(err: unknown): string | undefined {
  return pgError(err)?.code;
}

/**
 * Postgres errors that a caller's input (or a lost race) can cause, by SQLSTATE, as catalog
 * errors; undefined for anything else (a bug or an outage, which stays internal). Input that
 * reaches the database this way slipped past validation, so the field is not known here.
 */
export function dbErrorToAppError(err: unknown): AppError | undefined {
  if (isMoneyGuard(err)) return undefined;
  const pg = pgError(err);
  const prismaCode = err instanceof Prisma.PrismaClientKnownRequestError ? err.code : undefined;
  const code = pg?.code;
  if (code === '22021' || code === '22P05') return invalidInput('must not contain NUL characters or invalid text');
  if (code === '22003' || prismaCode === 'P2020') return invalidInput('a number is out of range');
  if (code === '22008' || code === '22007') return invalidInput('a date-time is out of range');
  if (code === '22P02' || code === '22001' || code === '22023' || code === '22026' || code === '54000') return invalidInput('a value is malformed or too long');
  if (code === '23514' || code === '23502' || code === '23503' || code === '23P01') return invalidInput('the request breaks a rule of the data');
  if (code === '23505') return new AppError('conflict', 'The request conflicts with existing data.');
  if (code === '40001' || code === '40P01') {
    // Reached only after retryOnConflict gave up: the caller may simply try again.
    return new AppError('conflict', 'The request collided with concurrent requests; try again.', { retryable: true });
  }
  // An outage the caller may retry, a create with its Idempotency-Key (whether it committed is
  // unknown), not a bug.
  if (isConnectionFailure(err)) {
    return new AppError('unavailable', 'The database connection was lost; try again.', { retryAfterSeconds: 1 });
  }
  if (isOutOfTime(err)) return new AppError('unavailable', undefined, { retryAfterSeconds: 1 });
  if (prismaCode === 'P2025') return new AppError('not_found');
  if (prismaCode === 'P2000' || prismaCode === 'P2006' || prismaCode === 'P2007' || prismaCode === 'P2023') return invalidInput('a value is malformed or too long');
  if (err instanceof Prisma.PrismaClientValidationError) return invalidInput('a value is malformed');
  return undefined;
}

/**
 * The database's money guards (trigger functions raising SQLSTATE GWM01, each in its definition
 * file under src/domain/<concern>/sql/, and the money CHECKs) refuse what the domain should never
 * have tried: a bug, never a caller's input, so it stays `internal_error` and is logged in full.
 */
const MONEY_CONSTRAINT = /payments_(released_only_final_unconfirmed|confirmed_within_late_window|auto_sms_has_message|debited_iff_confirmed|sandbox_is_free)|credit_ledger_fee/;

export function isMoneyGuard(err: unknown): boolean {
  const pg = pgError(err);
  if (pg?.code === 'GWM01') return true;
  const message = err instanceof Error ? err.message : '';
  return pg?.code === '23514' && MONEY_CONSTRAINT.test(message);
}

function invalidInput(message: string): AppError {
  return AppError.invalid([{ field: 'request', message }], `The request is invalid: ${message}.`);
}

/**
 * The server ended the session with FATAL 57P01 (admin_shutdown: pg_terminate_backend, a fast
 * shutdown, the old primary of a failover) in answer to a statement, before the statement's
 * transaction committed. A backend ends so from ProcessInterrupts, which aborts the open
 * transaction; after a commit PostgreSQL flushes ReadyForQuery before it checks for interrupts
 * again, so a client that got this answer got no commit, and the unit of work (one autocommit
 * statement, or a transaction from BEGIN) can run again on another connection. Mostly it is a
 * pooled connection whose backend was ended while idle and was handed out before its FATAL was read.
 * Not included: a commit waiting for a synchronous standby that is told to die has committed
 * locally, says so in a WARNING and closes the connection without a FATAL ("Connection terminated
 * unexpectedly", see `isConnectionLost`): that one is not run again.
 */
export function isSessionEndedUncommitted(err: unknown): boolean {
  const pg = pgError(err);
  return pg?.code === '57P01' && (pg.severity === undefined || pg.severity === 'FATAL');
}

/**
 * Runs a unit of work (an autocommit statement, or a transaction from BEGIN) again, up to
 * `attempts` times in all, while the server answers it by ending the session before it committed
 * (`isSessionEndedUncommitted`); the ended connection is not reused (pg-pool drops a client that
 * failed so). `run` must touch nothing but the database.
 */
export async function retryEndedSession<T>(attempts: number, run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt < attempts && isSessionEndedUncommitted(err)) continue;
      throw err;
    }
  }
}

/**
 * The connection went away under a statement (no SQLSTATE, or a socket error), or none could be
 * had. Whether the statement committed is unknown, so it is not run again; the caller is told 503.
 */
export function isConnectionLost(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientKnownRequestError) return CONNECTION_PRISMA_CODES.has(err.code);
  if (err instanceof Prisma.PrismaClientInitializationError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_SOCKET_CODES.has(code)) return true;
  return CONNECTION_LOST_MESSAGES.test(err.message);
}

/**
 * The connection or the server failed, not the statement: the connection failed (SQLSTATE class 08,
 * PgBouncer's "server conn crashed?" and "server login has been failing" among them), the server
 * ended the session or cannot take one (class 57P: a terminated backend, a shutdown, a crash
 * restart, a failover), or the socket went away (`isConnectionLost`). Such a connection is not
 * handed out again (src/db/pool.ts, src/db/statement.ts), a sweep backs off instead of blaming a
 * row (src/domain/payments/sweeps.ts), and the caller is told 503.
 */
export function isConnectionFailure(err: unknown): boolean {
  const code = pgError(err)?.code;
  return code?.startsWith('08') === true || code?.startsWith('57P') === true || isConnectionLost(err);
}

/**
 * A statement or lock timeout, no resources (53xxx), or an interactive transaction Prisma gave up
 * for time (P2028): no connection within its `maxWait` (src/db/prisma.ts), or it outran its
 * `timeout` and was rolled back. Nothing of it committed.
 */
function isOutOfTime(err: unknown): boolean {
  const code = pgError(err)?.code;
  if (code === '57014' || code === '55P03' || code?.startsWith('53')) return true;
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2028' && TRANSACTION_TIMEOUT.test(err.message);
}

const TRANSACTION_TIMEOUT = /Unable to start a transaction in the given time|cannot be executed on an expired transaction/;

/**
 * The database could not do the work now, for load or an outage, not for anything in the work: no
 * connection or transaction in time, a statement or lock timeout, no resources, a lost
 * connection, a conflict still there after its retries. The same work may succeed later.
 */
export function isDatabaseBusy(err: unknown): boolean {
  return isOutOfTime(err) || isSerializationFailure(err) || isConnectionFailure(err);
}

/** Prisma's codes for an unreachable server, a closed connection, a socket or pool timeout. */
const CONNECTION_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
const CONNECTION_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** node-postgres's own errors for a lost or unobtainable connection (pg 8, pg-pool 3). */
const CONNECTION_LOST_MESSAGES =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end on the pool)$/;

export function isUniqueViolation(err: unknown): boolean {
  return pgError(err)?.code === '23505';
}

export function isSerializationFailure(err: unknown): boolean {
  const code = pgError(err)?.code;
  return code === '40001' || code === '40P01';
}

/**
 * Two creates on two cards of one phone drew the same amount: the unique index over live holds let
 * one commit and refused the other, which draws again (create_payment.sql).
 */
export function isHoldClash(err: unknown): boolean {
  const pg = pgError(err) as { code?: string; constraint?: string } | undefined;
  return pg?.code === '23505' && (pg.constraint === 'amount_holds_live_uq' || (err instanceof Error && err.message.includes('amount_holds_live_uq')));
}

/**
 * Runs a transaction again when Postgres aborted it to break a deadlock or a serialization
 * conflict (the work is redone from the start, so nothing half-applied survives); with
 * `holdClashes`, also when two creates drew one amount on one phone.
 */
export async function retryOnConflict<T>(run: () => Promise<T>, attempts = 5, opts: { holdClashes?: boolean } = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt < attempts && (isSerializationFailure(err) || (opts.holdClashes && isHoldClash(err)))) continue;
      throw err;
    }
  }
}
