import pg from 'pg';
import { isConnectionFailure, retryEndedSession } from './errors.js';

/**
 * Statements this process has sent through its pool: a count, and while `names` is an array the
 * name of each (a typed statement's label, else the start of its text), for the round-trip test
 * (test/perf/round-trips.test.ts). An increment per statement costs nothing next to the round trip.
 */
export const statementLog: { sent: number; names: string[] | null } = { sent: 0, names: null };

/** Where `statement()` (src/db/statement.ts) puts its label on a query config: pg never reads it. */
export const STATEMENT_LABEL = Symbol('statement label');
/** Set by `statement(..., { prepare: true })`: on a preparing pool, the label becomes the statement's name. */
export const PREPARE = Symbol('prepare');

type QueryConfigLike = { name?: string; text?: string; types?: TypeParsers; [STATEMENT_LABEL]?: string; [PREPARE]?: true };

type TypeParsers = { getTypeParser: (oid: number, format?: string) => unknown };

const JSON_OID = 114;
const asText = (value: string) => value;
/**
 * `json` columns (a payment's metadata, and the webhook payloads that carry it) are read as their
 * text, which keeps the merchant's key order; JSON.parse would list integer-like keys ("1", "42")
 * first. src/ordered-json.ts parses that text keeping the order. Our statements get the text from
 * the pool's parsers; Prisma's adapter brings its own parsers with each query and JSON.parses what
 * they give, so for `json` they give the text as a JSON string literal: Prisma's field is then the
 * text too. `jsonb` (which keeps no order anyway) is untouched.
 */
const TEXT_JSON: TypeParsers = { getTypeParser: (oid, format) => (oid === JSON_OID ? asText : pg.types.getTypeParser(oid, format as 'text')) };
const quoted = (value: string) => JSON.stringify(value);
function prismaTextJson(types: TypeParsers): TypeParsers {
  return { getTypeParser: (oid, format) => (oid === JSON_OID && format !== 'binary' ? quoted : types.getTypeParser(oid, format)) };
}

type Callback = (err: Error | null, res?: unknown) => void;

/** Takes a trailing node-style callback off a query's arguments (pg's overloads allow one). */
function takeCallback(args: unknown[]): Callback | undefined {
  return typeof args.at(-1) === 'function' ? (args.pop() as Callback) : undefined;
}

/** A query's answer as pg gives it: the promise, or nothing with the callback called from it. */
function answer(result: Promise<unknown>, callback: Callback | undefined): never {
  if (!callback) return result as never;
  result.then((res) => callback(null, res), (err: Error) => callback(err));
  return undefined as never;
}

/**
 * Refused on the process pool: DATABASE_URL may be PgBouncer in transaction mode, where a prepared
 * statement lives on one server connection while the next transaction may get another.
 */
function namedStatementError(name: string): Error {
  return new Error(
    `named prepared statement "${name}" refused: the pool may run through PgBouncer in transaction mode; send it unnamed (src/db/statement.ts)`,
  );
}

/**
 * A pg client that counts what it sends (Prisma and the typed hot paths share this pool) and runs
 * its statements one after another, in call order. A connection carries one statement at a time;
 * pg 8 queues overlapping calls itself but deprecates that (pg 9 throws), and Prisma's driver
 * adapter (@prisma/adapter-pg 7.10) overlaps them: inside an interactive transaction a read that
 * includes two or more relations loads them concurrently on the transaction's one connection
 * (prisma/orm#29407, fix proposed in prisma/orm#29979). Waiting here for the previous statement is
 * the "external flow control" pg asks for; clients of the pool are separate connections, so
 * statements on different connections still run in parallel. It refuses a named prepared statement
 * given to it (see `namedStatementError`): Prisma's adapter sends its statements unnamed, and so does
 * `statement`, except those marked `prepare` on a pool made with `prepareStatements` (no pooler).
 */
class CountingClient extends pg.Client {
  /** Settles when this connection's last statement has; never rejects. */
  private previous: Promise<unknown> = Promise.resolve();
  /** Shared by the pool's clients: while `on`, `statement(..., { prepare: true })` is sent named. */
  private readonly preparing: PrepareSwitch | null;

  constructor(config?: string | (pg.ClientConfig & { preparing?: PrepareSwitch })) {
    super(config);
    this.preparing = typeof config === 'object' ? (config.preparing ?? null) : null;
    // pg-pool takes its idle 'error' listener off a client while it is checked out. A connection
    // that dies between two statements of a checked-out client (the server or PgBouncer ends it:
    // "terminating connection due to unexpected postmaster exit", "server conn crashed?" when the
    // primary dies mid-transaction) would then emit 'error' with nobody listening, which ends the
    // process (the failover exercise, bench/failover.ts, lost all four processes so). The error
    // needs no handling here: the client is no longer queryable, so its holder's next statement
    // fails, and pg-pool discards a client that is not queryable when it is released.
    this.on('error', () => undefined);
  }

  // pg's query() has many overloads; the arguments pass through as they came.
  override query(...args: unknown[]): never {
    statementLog.sent++;
    const first = args[0] as string | QueryConfigLike;
    if (statementLog.names) {
      statementLog.names.push(typeof first === 'string' ? first.slice(0, 60) : (first[STATEMENT_LABEL] ?? first.name ?? first.text?.slice(0, 60) ?? '?'));
    }
    if (typeof first === 'object' && first !== null && first.name) {
      const err = namedStatementError(first.name);
      const callback = typeof args.at(-1) === 'function' ? (args.at(-1) as Callback) : undefined;
      if (!callback) return Promise.reject(err) as never;
      queueMicrotask(() => callback(err));
      return undefined as never;
    }
    if (typeof first === 'object' && first !== null && first.types) args[0] = { ...first, types: prismaTextJson(first.types) };
    const named = this.preparing?.on === true && typeof first === 'object' && first !== null && first[PREPARE] === true && first[STATEMENT_LABEL] !== undefined;
    if (named) args[0] = { ...(args[0] as QueryConfigLike), name: first[STATEMENT_LABEL] };
    const send = super.query as (...a: unknown[]) => Promise<unknown>;
    // Cursors, streams and config-held callbacks settle by events pg emits; nothing here sends them.
    if (typeof first === 'object' && first !== null && ('submit' in first || 'callback' in first)) return send.apply(this, args) as never;
    // pg-pool's pool.query() passes a trailing callback; it is answered from the promise.
    const callback = takeCallback(args);
    let result = this.previous.then(() => send.apply(this, args));
    if (named) result = result.catch((err: unknown) => this.preparing!.refused(err));
    this.previous = result.catch(() => undefined);
    return answer(result, callback);
  }
}

/**
 * Whether a pool prepares its marked statements. A server that says a prepared statement "does not
 * exist" (26000) or "already exists" (42P05) is not the one that parsed it: a transaction-mode
 * pooler stands between, though no DATABASE_DIRECT_URL was set apart. The pool then stops naming
 * statements for good, says so once, and the statement that met it fails as any other error would.
 */
class PrepareSwitch {
  on: boolean;
  constructor(
    on: boolean,
    private readonly onRefused: (err: unknown) => void,
  ) {
    this.on = on;
  }

  refused(err: unknown): never {
    const code = (err as { code?: string } | null)?.code;
    if (this.on && (code === '26000' || code === '42P05')) {
      this.on = false;
      this.onRefused(err);
    }
    throw err;
  }
}

let guarded = false;

/**
 * An 'error' a pg client emits once its owner stopped listening is logged, instead of ending the
 * process (an EventEmitter 'error' with no listener throws). pg-boss 12.35's LISTEN connection
 * (dist/db.js, `disconnect`) removes every listener of a failed client, then ends it; behind
 * PgBouncer in session mode a dying server sends two errors, the backend's FATAL "terminating
 * connection due to unexpected postmaster exit" and then PgBouncer's "server conn crashed?", and
 * the second arrived on a client with no listener left: every API and worker process died at the
 * failover (bench/failover.ts). pg-boss creates that client itself, so the guard is on pg.Client's
 * prototype; a client somebody listens to is not affected.
 */
export function guardAbandonedClients(onLateError: (err: unknown) => void): void {
  if (guarded) return;
  guarded = true;
  const emit = pg.Client.prototype.emit;
  pg.Client.prototype.emit = function (this: pg.Client, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'error' && this.listenerCount('error') === 0) {
      onLateError(args[0]);
      return false;
    }
    return emit.call(this, event, ...args);
  };
}

/**
 * A new connection costs its first request ~20 ms (measured on 2 busy cores: the connection ~8 ms,
 * then the create's first call ~13 ms more than the next one: a new server process compiles each
 * PL/pgSQL function and loads its catalog caches on first use). pg-pool's defaults close every
 * connection idle for 10 s, so a shop whose requests come more than 10 s apart, most shops, paid
 * that on every request. A pool keeps this many connections however long they sit idle (fewer if
 * its `max` is smaller)...
 */
export const WARM_CONNECTIONS = 2;
/** ...and closes those above it once idle this long (a burst's extra connections). */
export const IDLE_CLOSE_MS = 60_000;

/**
 * The one pool of a process: Prisma (management, Pothos relations) and the hot paths' typed SQL
 * (src/db/statement.ts) both draw from it, so a request never waits on a second pool's connections.
 * `connectionString` is DATABASE_URL, which may be PgBouncer in transaction mode: nothing sent
 * through this pool relies on a session (no named statements, LISTEN, session locks or SET).
 * `idleTimeoutMillis` is IDLE_CLOSE_MS unless given (tests).
 */
export function createPool(
  connectionString: string,
  max: number,
  options: Pick<pg.PoolConfig, 'application_name' | 'connectionTimeoutMillis' | 'idleTimeoutMillis'> & {
    /**
     * True only when `connectionString` is PostgreSQL itself (DATABASE_URL with no separate
     * DATABASE_DIRECT_URL): `statement(..., { prepare: true })` is then parsed once per connection.
     */
    prepareStatements?: boolean;
    /** Told once when the server proves a pooler is in between after all (see `PrepareSwitch`). */
    onPreparedRefused?: (err: unknown) => void;
  } = {},
): pg.Pool {
  const { prepareStatements = false, onPreparedRefused = () => undefined, ...rest } = options;
  const preparing = new PrepareSwitch(prepareStatements, onPreparedRefused);
  const pool = new pg.Pool({
    idleTimeoutMillis: IDLE_CLOSE_MS,
    ...rest,
    connectionString,
    max,
    min: Math.min(WARM_CONNECTIONS, max),
    Client: CountingClient,
    types: TEXT_JSON,
    preparing,
  } as pg.PoolConfig);
  retryEndedSessions(pool);
  return pool;
}

/**
 * Attempts for one unit of work (an autocommit statement here, a transaction in `inTransaction` and
 * Prisma's `$transaction`) whose connection the server had ended: every idle connection of a pool
 * of `max` may have been ended at once (a failover, pg_terminate_backend), and each fails once.
 */
export function endedSessionAttempts(pool: pg.Pool): number {
  return (pool.options.max ?? 10) + 1;
}

/**
 * `pool.query` (an autocommit statement: Prisma's reads and writes outside a transaction, the typed
 * hot paths) runs again on another connection when the server answered it by ending the session
 * before anything committed (`isSessionEndedUncommitted`); `releaseClient` has discarded the ended
 * connection. Anything else, a lost connection whose statement may have committed among them, is
 * the caller's.
 */
function retryEndedSessions(pool: pg.Pool): void {
  const pgPoolQuery = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const attempts = endedSessionAttempts(pool);
  pool.query = function query(...args: unknown[]): never {
    // A cursor or stream carries its own state and cannot be sent twice.
    if (typeof args[0] === 'object' && args[0] !== null && 'submit' in args[0]) return pgPoolQuery(...args) as never;
    const callback = takeCallback(args);
    return answer(retryEndedSession(attempts, () => queryOnce(pool, args)), callback);
  } as typeof pool.query;
}

/**
 * One autocommit statement on a pooled connection, which goes back to the pool afterwards unless
 * the connection itself failed. pg-pool's own `pool.query` discards the connection whenever the
 * statement fails, a refusal included (a unique violation, a constraint, a RAISE of the create
 * function: GW503 no card, GW402 credit): the next statement then waited for a new server process
 * (a fork, authentication, and every cached plan and PL/pgSQL function compiled again). The create
 * hot path meets the unique index over live holds by design (two creates drawing one amount), and a
 * caller sending refused requests made the server start a process for each. A refused statement
 * leaves its connection as clean as a successful one (the server rolled back its implicit
 * transaction); a lost or ended connection is discarded, as pg-pool does for one no longer queryable.
 */
async function queryOnce(pool: pg.Pool, args: unknown[]): Promise<unknown> {
  const client = await pool.connect();
  let failed: unknown;
  try {
    return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
  } catch (err) {
    failed = err;
    throw err;
  } finally {
    await releaseClient(client, failed);
  }
}

/**
 * Gives a checked-out connection back after its work, `failed` with what made that work fail if
 * anything did. It is discarded when the connection failed (`isConnectionFailure`). One the server
 * says is still inside a transaction (a BEGIN sent as a plain statement, a ROLLBACK that did not
 * happen) is rolled back first, and discarded if that does not bring it out: the next caller would
 * find the transaction open, or aborted. Closing it is not enough behind PgBouncer in transaction
 * mode, which may hand the server connection, still inside the transaction, to its next client (seen
 * in CI's pooler pass). Otherwise it goes back, a statement the database refused included.
 */
type ConnectionEvents = {
  once(event: 'readyForQuery' | 'end', listener: () => void): unknown;
  off(event: 'readyForQuery' | 'end', listener: () => void): unknown;
};
type ReadyState = { readyForQuery?: boolean; connection?: ConnectionEvents };

/**
 * pg rejects a statement when the server's ErrorResponse arrives, before the ReadyForQuery that
 * follows it and carries the transaction status: read then, `getTransactionStatus()` still says what
 * the connection was before the statement. A text that opened a transaction and then failed
 * (`BEGIN; SELECT 1 / 0`) would read 'I' and go back aborted; it did behind PgBouncer, which may
 * forward the two messages in separate packets (CI's pooler pass). So a failed connection's status
 * is read once its ReadyForQuery has come (or the connection ended).
 */
async function readyAfterError(client: pg.PoolClient): Promise<void> {
  const state = client as unknown as ReadyState;
  if (state.readyForQuery !== false || !state.connection) return;
  const connection = state.connection;
  await new Promise<void>((resolve) => {
    const done = () => {
      connection.off('readyForQuery', done);
      connection.off('end', done);
      resolve();
    };
    connection.once('readyForQuery', done);
    connection.once('end', done);
  });
}

export async function releaseClient(client: pg.PoolClient, failed: unknown): Promise<void> {
  if (failed !== undefined && isConnectionFailure(failed)) return client.release(failed as Error);
  if (failed !== undefined) await readyAfterError(client);
  // 'I': idle, outside a transaction; 'T' inside one, 'E' inside a failed one.
  if (client.getTransactionStatus() !== 'I') {
    const rolledBack = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    const status = client.getTransactionStatus();
    if (!rolledBack || status !== 'I') return client.release(new Error(`connection given back inside a transaction (status ${status})`));
  }
  client.release();
}
