import type pg from 'pg';

/** Something that runs a statement: the pool (autocommit) or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/**
 * One named (prepared) statement: Postgres parses and plans it once per connection, not per
 * request. `R` is the row type the SQL returns; the text is a constant, so the name is stable.
 */
export function statement<P extends unknown[], R extends pg.QueryResultRow>(name: string, text: string) {
  return async (db: Queryable, ...values: P): Promise<R[]> => (await db.query<R>({ name, text, values })).rows;
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
