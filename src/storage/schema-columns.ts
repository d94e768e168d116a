/**
 * Column helpers shared by the schema files (see the time convention in `schema.ts`).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { check, integer, text } from 'drizzle-orm/sqlite-core';

/** An instant column: INTEGER epoch ms, read as a `Date`. */
export const instant = (name: string) => integer(name, { mode: 'timestamp_ms' });
/** An instant that defaults to the database clock at insert, with ms resolution. */
export const createdAt = (name: string) =>
  instant(name).notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);
/**
 * A CHECK that keeps a text enum column honest below the TS types. The column is named
 * unqualified so drizzle-kit's table rebuilds (`__new_<table>`) still parse; values are constants.
 */
export const oneOf = (name: string, column: SQLiteColumn, values: readonly string[]) =>
  check(name, sql`${sql.identifier(column.name)} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`);
/** A random text primary key for rows nobody names. */
export const uuidPk = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => randomUUID());
