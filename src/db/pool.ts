import pg from 'pg';

/**
 * Statements this process has sent through its pool: a count, and while `names` is an array the
 * name of each (a prepared statement's name, else the start of its text), for the round-trip test
 * (test/perf/round-trips.test.ts). An increment per statement costs nothing next to the round trip.
 */
export const statementLog: { sent: number; names: string[] | null } = { sent: 0, names: null };

type QueryConfigLike = { name?: string; text?: string };

/** A pg client that counts what it sends (Prisma and the typed hot paths share this pool). */
class CountingClient extends pg.Client {
  // pg's query() has many overloads; counting is the only change, so the arguments pass through as they came.
  override query(...args: unknown[]): never {
    statementLog.sent++;
    if (statementLog.names) {
      const first = args[0] as string | QueryConfigLike;
      statementLog.names.push(typeof first === 'string' ? first.slice(0, 60) : (first.name ?? first.text?.slice(0, 60) ?? '?'));
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

/**
 * The one pool of a process: Prisma (management, Pothos relations) and the hot paths' typed SQL
 * (src/db/hot) both draw from it, so a request never waits on a second pool's connections.
 */
export function createPool(connectionString: string, max: number): pg.Pool {
  return new pg.Pool({ connectionString, max, Client: CountingClient });
}
