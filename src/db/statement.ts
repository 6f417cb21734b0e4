import type pg from 'pg';
import { retryEndedSession } from './errors.js';
import { endedSessionAttempts, PREPARE, releaseClient, STATEMENT_LABEL } from './pool.js';

/** Something that runs a statement: the pool (autocommit) or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/**
 * One typed statement: a constant SQL text, sent as an unnamed (extended-protocol) statement, so it
 * runs unchanged through PgBouncer in transaction mode, where a named prepared statement would be
 * left on whichever server connection parsed it ("does not exist" / "already exists" on the next
 * request). `name` labels it in the statement log (src/db/pool.ts). With `prepare`, on a pool
 * straight to PostgreSQL (no transaction pooler in between, `createPool(..., { prepare: true })`)
 * it is sent as a named statement, parsed once per connection and then only bound and executed:
 * for the simple lookups run on every request (a payment by id, the checkout view, credentials);
 * through a pooler it stays unnamed. `R` is the row type the SQL returns.
 */
export function statement<P extends unknown[], R extends pg.QueryResultRow>(name: string, text: string, opts: { prepare?: boolean } = {}) {
  if (opts.prepare && SELECTS_ALL.test(text)) {
    throw new Error(`statement "${name}": a prepared statement names its columns (a cached plan of "*" fails once a migration adds one)`);
  }
  const prepare = opts.prepare === true;
  return async (db: Queryable, ...values: P): Promise<R[]> => {
    const config: pg.QueryConfig & { [STATEMENT_LABEL]: string; [PREPARE]?: true } = { text, values, [STATEMENT_LABEL]: name };
    if (prepare) config[PREPARE] = true;
    return (await db.query<R>(config)).rows;
  };
}

/**
 * `*` in a select list or RETURNING (`SELECT *`, `p.*`, `RETURNING *`), not `count(*)`. PostgreSQL
 * refuses to run a cached plan whose result columns changed ("cached plan must not change result
 * type"), so a statement prepared once per connection lists its columns.
 */
const SELECTS_ALL = /(?:\bselect|\breturning|,|\.)\s*\*/i;

/**
 * BEGIN … COMMIT on one pooled connection; ROLLBACK on any error. Run again from BEGIN on another
 * connection when the server ended the session before the transaction committed
 * (`isSessionEndedUncommitted`): `run` must do nothing outside the database.
 */
export function inTransaction<T>(pool: pg.Pool, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return retryEndedSession(endedSessionAttempts(pool), () => onceInTransaction(pool, run));
}

async function onceInTransaction<T>(pool: pg.Pool, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let failed: unknown;
  try {
    await client.query('BEGIN');
    const result = await run(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    failed = err;
    throw err;
  } finally {
    // The ROLLBACK: a transaction that failed is still open, and `releaseClient` rolls it back
    // before the connection goes back (or discards it, when the connection itself failed).
    await releaseClient(client, failed);
  }
}
