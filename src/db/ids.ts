import { v7 } from 'uuid';

/**
 * A new id for a row of a table that grows with every payment, message or delivery: a UUID of
 * version 7 (RFC 9562, time-ordered), as Prisma's `@default(uuid(7))` and the database's `uuid_v7()`
 * (src/db/sql/uuid_v7.sql) make for the same tables (docs/decisions.md "Time-ordered ids for the
 * growing tables"). For ids the code needs before the row is written.
 */
export const timeOrderedId = (): string => v7();
