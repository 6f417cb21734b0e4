import type pg from 'pg';
import { STATEMENT_LABEL } from './pool.js';

/** Something that runs a statement: the pool (autocommit) or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/**
 * One typed statement: a constant SQL text, sent as an unnamed (extended-protocol) statement, so it
 * runs unchanged through PgBouncer in transaction mode, where a named prepared statement would be
 * left on whichever server connection parsed it ("does not exist" / "already exists" on the next
 * request). `name` labels it in the statement log (src/db/pool.ts) and never reaches the server.
 * `R` is the row type the SQL returns.
 */
export function statement<P extends unknown[], R extends pg.QueryResultRow>(name: string, text: string) {
  return async (db: Queryable, ...values: P): Promise<R[]> => {
    const config: pg.QueryConfig & { [STATEMENT_LABEL]: string } = { text, values, [STATEMENT_LABEL]: name };
    return (await db.query<R>(config)).rows;
  };
}

/** BEGIN … COMMIT on one pooled connection; ROLLBACK on any error. */
export async function inTransaction<T>(pool: pg.Pool, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await run(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
