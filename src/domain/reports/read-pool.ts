import type pg from 'pg';
import type { Deps } from '../deps.js';

/**
 * Where reports and exports read (CONTRACT "Operations": DATABASE_READ_URL, a replica, serves
 * exports, stats and dashboard lists). Until the process has a read pool this is the main pool;
 * reports never decide money, so a replica's lag is harmless here, and this is the one line to change.
 */
export function readPool(deps: Deps): pg.Pool {
  return deps.pool;
}
