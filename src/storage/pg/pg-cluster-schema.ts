/**
 * The cluster's tables on PostgreSQL (ADR 040), column for column as `../cluster-schema.ts`.
 * @module
 */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './pg-columns.js';

export const configVersionsTable = pgTable('config_versions', {
  version: integer('version').primaryKey(),
  document: text('document').notNull(),
  writtenBy: text('written_by').notNull(),
  writtenAt: instant('written_at').notNull(),
});

export const fleetMessagesTable = pgTable(
  'fleet_messages',
  {
    id: text('id').primaryKey(),
    topic: text('topic').notNull(),
    payload: text('payload').notNull(),
    createdAt: createdAt('created_at'),
  },
  (t) => [index('idx_fleet_messages_created').on(t.createdAt)],
);
