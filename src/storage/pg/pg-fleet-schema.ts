/**
 * The tables only a fleet needs (issue 22 part 6, ADR 042), on PostgreSQL alone: a single
 * replica on SQLite keeps its limits in memory. `rate_limits` is rate-limiter-flexible's
 * `RateLimiterPostgres` table, made here by the migrations (the library is told it exists);
 * `fleet_sessions` counts the open agent sessions of every replica for the session caps.
 * @module
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { instant } from './pg-columns.js';

/**
 * One fixed-window counter per limiter key (`client:token:<id>`, `global:all`). The columns
 * and their order are the library's: its upsert is `INSERT … VALUES ($1, $2, $3)`.
 * `expire` is epoch ms of the replica that opened the window.
 */
export const rateLimitsTable = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});

/**
 * One row per open agent session that counts against `gateway.maxSessions*`: its owner
 * (token id or `admin`) and the replica process holding it, which refreshes `seen_at`
 * (database clock) on a heartbeat. A row not refreshed for three heartbeats (its replica
 * died) no longer counts and is deleted.
 */
export const fleetSessionsTable = pgTable(
  'fleet_sessions',
  {
    sessionId: text('session_id').primaryKey(),
    owner: text('owner').notNull(),
    holder: text('holder').notNull(),
    seenAt: instant('seen_at').notNull().default(sql`((extract(epoch from clock_timestamp()) * 1000)::bigint)`),
  },
  (t) => [index('idx_fleet_sessions_owner').on(t.owner), index('idx_fleet_sessions_holder').on(t.holder)],
);
