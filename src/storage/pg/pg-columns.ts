/**
 * Column helpers of the PostgreSQL schema (ADR 036). They store what the SQLite columns
 * store, in the same encodings, so the one set of drizzle queries (built on the SQLite
 * tables) reads and writes both: instants are BIGINT epoch ms, booleans INTEGER 0/1, JSON
 * TEXT. The PostgreSQL tables exist for drizzle-kit's migrations and for the test that
 * compares both schemas.
 * @module
 */
import { sql } from 'drizzle-orm';
import { bigint, check, type PgColumn, text } from 'drizzle-orm/pg-core';

/** An instant column: BIGINT epoch ms (the driver reads int8 as a JS number). */
export const instant = (name: string) => bigint(name, { mode: 'number' });
/** An instant that defaults to the database clock at insert, with ms resolution. */
export const createdAt = (name: string) =>
  instant(name).notNull().default(sql`((extract(epoch from clock_timestamp()) * 1000)::bigint)`);
/** The CHECK of a text enum column, as on SQLite. */
export const oneOf = (name: string, column: PgColumn, values: readonly string[]) =>
  check(name, sql`${sql.identifier(column.name)} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`);
/** A text primary key; its random value comes from the SQLite table's default at insert. */
export const textPk = () => text('id').primaryKey();
