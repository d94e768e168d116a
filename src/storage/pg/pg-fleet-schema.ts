/**
 * The tables only a fleet needs (issue 22 part 6, ADR 042), on PostgreSQL alone: a single
 * replica on SQLite keeps its limits in memory. `rate_limits` is rate-limiter-flexible's
 * `RateLimiterPostgres` table, made here by the migrations (the library is told it exists);
 * `fleet_sessions` counts the open agent sessions of every replica for the session caps;
 * `stream_events` keeps the GET streams' recent events for a resumption on another replica
 * (ADR 039 §5; one process on SQLite resumes from its memory); `cluster_checks` the
 * fingerprints of the secrets every replica must share (K5).
 * @module
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './pg-columns.js';

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

/**
 * The recent events of the sessions' GET streams (ADR 039 §5), written by the replica that
 * holds a stream as it sends or logs each event, so that a `Last-Event-ID` reaching another
 * replica replays what followed. `session` is the session id's digest, `event_id` the id the
 * client saw (`<tag>g<n>`), `n` the order. Kept five minutes (UNLOGGED: no WAL flush per
 * event; lost on a server crash, like the streams they would resume).
 */
export const streamEventsTable = pgTable(
  'stream_events',
  {
    n: bigserial('n', { mode: 'number' }).primaryKey(),
    session: text('session').notNull(),
    eventId: text('event_id').notNull(),
    data: text('data').notNull(),
    /** Null: the GET stream's; else the POST stream (its request's stream id) the event was sent on. */
    stream: text('stream'),
    at: createdAt('at'),
  },
  (t) => [index('idx_stream_events_session').on(t.session, t.eventId), index('idx_stream_events_at').on(t.at)],
);

/**
 * The fingerprint (an HMAC of a fixed text under the secret, never the secret) of each
 * secret every replica must be given alike: `cluster-key`, `admin-token`. The first replica
 * writes it; one started with another is refused while a replica that has it lives.
 */
export const clusterChecksTable = pgTable('cluster_checks', {
  name: text('name').primaryKey(),
  fingerprint: text('fingerprint').notNull(),
  updatedAt: createdAt('updated_at'),
});
