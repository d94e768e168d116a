/**
 * The replicas' tables on PostgreSQL (ADR 041), column for column those of
 * `replica-schema.ts`, in the SQLite encodings (`pg-columns.ts`).
 * @module
 */
import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './pg-columns.js';

export const replicasTable = pgTable('replicas', {
  id: text('id').primaryKey(),
  startedAt: instant('started_at').notNull(),
  lastHeartbeat: instant('last_heartbeat').notNull(),
  stoppedAt: instant('stopped_at'),
  version: text('version').notNull(),
  address: text('address'),
  leader: integer('leader').notNull().default(0),
});

export const replicaServersTable = pgTable(
  'replica_servers',
  {
    replica: text('replica').notNull(),
    server: text('server').notNull(),
    state: text('state').notNull(),
    attempt: integer('attempt').notNull().default(0),
    lastError: text('last_error'),
    pid: integer('pid'),
    toolCount: integer('tool_count').notNull().default(0),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [primaryKey({ columns: [t.replica, t.server] })],
);

export const keystoreEntriesTable = pgTable('keystore_entries', {
  name: text('name').primaryKey(),
  iv: text('iv').notNull(),
  tag: text('tag').notNull(),
  data: text('data').notNull(),
  updatedAt: createdAt('updated_at'),
});
