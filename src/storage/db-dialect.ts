/**
 * Which database a `Db` runs on (ADR 036), for the few queries that differ: the drizzle
 * queries are written once, on the SQLite tables, and run on either.
 * @module
 */
import { type SQL, sql } from 'drizzle-orm';

const onPostgres = new WeakSet<object>();

/** Mark `db` as a PostgreSQL database (done by `createDb`). */
export function markPostgres(db: object): void {
  onPostgres.add(db);
}

/** Whether `db` runs on PostgreSQL. */
export function isPostgres(db: object): boolean {
  return onPostgres.has(db);
}

/**
 * The order rows were written in, to break ties of one millisecond: SQLite's `rowid`;
 * PostgreSQL's `ctid` (a row's place in its table: in insertion order for rows never
 * updated, which is what breaking a tie needs).
 */
export function insertionOrder(db: object): SQL {
  return isPostgres(db) ? sql`ctid` : sql`rowid`;
}

/**
 * How many rows a drizzle `update` or `delete` changed: libsql's `rowsAffected`, or
 * postgres.js's `count` (the same query on PostgreSQL returns its result list).
 */
export function rowsAffected(result: { rowsAffected: number }): number {
  return result.rowsAffected ?? (result as unknown as { count?: number }).count ?? 0;
}
