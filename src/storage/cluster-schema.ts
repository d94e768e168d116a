/**
 * The cluster's tables (issue 22 part 2, ADR 040): the desired config's versions and the
 * fleet bus's large messages. Used on PostgreSQL only (cluster mode); SQLite has them too
 * so the two schemas stay table for table alike (`test/storage/pg/pg-schema.test.ts`).
 * Same conventions as `schema.ts`, which re-exports this file.
 * @module
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, instant } from './schema-columns.js';

/**
 * Every version of the desired config (cluster mode): `version` counts up from 1 and is the
 * primary key, so two writers that both read version N cannot both write N+1 (compare-and-set);
 * `document` is the config's text as written (comments and order kept).
 */
export const configVersionsTable = sqliteTable('config_versions', {
  version: integer('version').primaryKey(),
  document: text('document').notNull(),
  /** Who wrote it: `api on <replica>`, `seed from <file>`, `bnity config import <file>`. */
  writtenBy: text('written_by').notNull(),
  writtenAt: instant('written_at').notNull(),
});

/** A fleet-bus message too large for a NOTIFY payload: its id is notified instead; kept a few minutes. */
export const fleetMessagesTable = sqliteTable(
  'fleet_messages',
  {
    id: text('id').primaryKey(),
    topic: text('topic').notNull(),
    payload: text('payload').notNull(),
    createdAt: createdAt('created_at'),
  },
  (t) => [index('idx_fleet_messages_created').on(t.createdAt)],
);
