/**
 * The tables of cluster mode's replicas (issue 22 parts 7 and 8, ADR 041): each replica's
 * heartbeat, the state of each server on each replica, and the keystore kept in the database.
 * On SQLite they hold the one replica (and an unused keystore table); the queries are the same.
 * @module
 */
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, instant } from './schema-columns.js';

/**
 * One row per replica id ever started on the database: `last_heartbeat` is refreshed every
 * `replicas.heartbeatMs`; `stopped_at` is set by a clean stop (null while it runs, or after a
 * crash: then only the heartbeat's age tells). `leader`: 1 while it holds the advisory lock of
 * the run-once jobs (ADR 041).
 */
export const replicasTable = sqliteTable('replicas', {
  id: text('id').primaryKey(),
  startedAt: instant('started_at').notNull(),
  lastHeartbeat: instant('last_heartbeat').notNull(),
  stoppedAt: instant('stopped_at'),
  version: text('version').notNull(),
  address: text('address'),
  leader: integer('leader').notNull().default(0),
});

/**
 * Each server's state on each replica, written by the replica on every change of it (from
 * its supervisor's events, never polled); a replica's rows are replaced when it starts.
 */
export const replicaServersTable = sqliteTable(
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

/**
 * The keystore in the database (cluster mode): each secret AES-256-GCM sealed under
 * `BOTERNITY_KEYSTORE_KEY`, its name bound in; the database alone cannot open it.
 */
export const keystoreEntriesTable = sqliteTable('keystore_entries', {
  name: text('name').primaryKey(),
  iv: text('iv').notNull(),
  tag: text('tag').notNull(),
  data: text('data').notNull(),
  updatedAt: createdAt('updated_at'),
});
