/**
 * The database schema (SPEC C5), drizzle sqlite-core over libsql. TS names are camelCase,
 * SQL columns snake_case; tables are exported as `xxxTable`.
 *
 * Time convention, for every table: instants are INTEGER milliseconds since the Unix epoch
 * (`mode: 'timestamp_ms'`, a `Date` in TS) so they sort and compare numerically and cannot be
 * confused with durations, which are plain integers named `*Ms`. The one exception is
 * `upstream_processes.start_time`, an opaque `/proc/<pid>/stat` tick count, not an instant.
 *
 * Change this file (or `bot-schema.ts`), then `npm run db:generate -- --name <what>`; migrations in `drizzle/`
 * are applied at start by `createDb`.
 * @module
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { PinTexts } from '../guard/pin-texts.js';
import { botsTable } from './bot-schema.js';
import { createdAt, instant, oneOf, uuidPk } from './schema-columns.js';

// The bots' tables live beside this file; re-exported so `* as schema` and drizzle-kit see them.
export * from './bot-schema.js';
export * from './cluster-schema.js';
export * from './replica-schema.js';

/** Transports an upstream connection uses (the `auto` config value resolves to one of them). */
export const transportTypes = ['stdio', 'http', 'sse'] as const;
/**
 * Persisted connection states: the live states of the connection actor (S1), plus
 * `disconnected` for a row a previous run left behind that no actor owns yet.
 */
export const connectionStatuses = ['connecting', 'connected', 'reconnecting', 'disabled', 'disconnected'] as const;

/**
 * The last known state of each upstream connection (S4: latency and last ping persisted).
 * `id` is `global:<server>` for a shared connection (see `globalConnectionId`); a per-bot or
 * per-session connection to the same server gets its own id and row, so `server_name` is
 * indexed but not unique.
 */
export const mcpConnectionsTable = sqliteTable(
  'mcp_connections',
  {
    id: text('id').primaryKey(),
    serverName: text('server_name').notNull(),
    transportType: text('transport_type', { enum: transportTypes }).notNull(),
    status: text('status', { enum: connectionStatuses }).notNull(),
    /** Null for shared connections. Not a foreign key: bots may come from the config file. */
    botId: text('bot_id'),
    attempt: integer('attempt').notNull().default(0),
    nextRetryAt: instant('next_retry_at'),
    connectedAt: instant('connected_at'),
    disconnectedAt: instant('disconnected_at'),
    lastHealthPing: instant('last_health_ping'),
    pingLatencyMs: integer('ping_latency_ms'),
    errorMessage: text('error_message'),
    /** The stdio child's pid; null for remote transports and when not running. */
    pid: integer('pid'),
    toolCount: integer('tool_count').notNull().default(0),
    resourceCount: integer('resource_count').notNull().default(0),
    resourceTemplateCount: integer('resource_template_count').notNull().default(0),
    promptCount: integer('prompt_count').notNull().default(0),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [
    index('idx_mcp_connections_server').on(t.serverName),
    index('idx_mcp_connections_bot').on(t.botId),
    oneOf('mcp_connections_transport_type', t.transportType, transportTypes),
    oneOf('mcp_connections_status', t.status, connectionStatuses),
  ],
);

/** `client`: boternity as a client of an upstream; `server`: boternity serving an agent. */
export const auditDirections = ['client', 'server'] as const;

/**
 * Every MCP event in both directions (X7). Payloads are never stored, only their SHA-256.
 * No foreign keys: audit rows outlive the bots they name.
 */
export const mcpAuditTable = sqliteTable(
  'mcp_audit',
  {
    id: uuidPk(),
    direction: text('direction', { enum: auditDirections }).notNull(),
    /** e.g. `tool_call`, `tool_result`, `sampling_request`, `connect`, `disconnect`, `error`. */
    eventType: text('event_type').notNull(),
    serverName: text('server_name'),
    botId: text('bot_id'),
    /** For server-side events: which MCP client (token id or session). */
    clientId: text('client_id'),
    /** The MCP client as it named itself (`clientInfo` `name/version`), when the session knows it. */
    clientName: text('client_name'),
    toolName: text('tool_name'),
    inputHash: text('input_hash'),
    outputHash: text('output_hash'),
    durationMs: integer('duration_ms'),
    success: integer('success', { mode: 'boolean' }).notNull().default(true),
    error: text('error'),
    /** Whether the sanitizer (X4) changed or flagged the content. */
    sanitized: integer('sanitized', { mode: 'boolean' }).notNull().default(false),
    /** Tokens used, for sampling events. */
    tokenUsage: integer('token_usage'),
    timestamp: createdAt('timestamp'),
    /** How many events of one kind this row stands for (events counted per window, not one row each); null: one. */
    count: integer('count'),
    /** The trace of the request (issue 21), when traces are on: its id in the tracing backend. */
    traceId: text('trace_id'),
  },
  (t) => [
    index('idx_mcp_audit_server').on(t.serverName),
    index('idx_mcp_audit_bot').on(t.botId),
    index('idx_mcp_audit_timestamp').on(t.timestamp),
    index('idx_mcp_audit_direction').on(t.direction),
    oneOf('mcp_audit_direction', t.direction, auditDirections),
  ],
);

/**
 * Bearer tokens for `/mcp` and `/api` (X1), stored as the SHA-256 hex of the token. A bot's
 * tokens are deleted with the bot: set-null would turn them into unscoped tokens.
 */
export const apiTokensTable = sqliteTable(
  'api_tokens',
  {
    id: uuidPk(),
    name: text('name').notNull(),
    botId: text('bot_id').references(() => botsTable.id, { onDelete: 'cascade' }),
    /** The bot whose view the token gets, by slug: bots may come from the config file (B2). */
    botSlug: text('bot_slug'),
    tokenHash: text('token_hash').notNull().unique(),
    /** The first characters of the token, shown in listings so people can tell tokens apart. */
    prefix: text('prefix').notNull(),
    createdAt: createdAt('created_at'),
    lastUsedAt: instant('last_used_at'),
    revokedAt: instant('revoked_at'),
  },
  (t) => [index('idx_api_tokens_bot').on(t.botId)],
);

/** States of a tool pin (X5). */
export const toolPinStatuses = ['pinned', 'quarantined', 'approved'] as const;

/**
 * Rug-pull pins (X5): the hash of each tool's description and schema on first sight. A
 * changed hash goes to `pending_hash` and the pin to `quarantined` until approved. `fields`
 * and `pending_fields` keep the texts those hashes cover for a side-by-side review, each cut
 * to `pins.textMaxChars` with its full length and hash (migration 0005 cut the full texts
 * older rows kept; null for pins made before texts were kept). `last_seen_at` is refreshed
 * at most once per touch interval, not at each re-list; `server_removed_at` is set while the
 * server is missing from the config (its pins are forgotten after a grace period).
 */
export const toolPinsTable = sqliteTable(
  'tool_pins',
  {
    serverName: text('server_name').notNull(),
    toolName: text('tool_name').notNull(),
    hash: text('hash').notNull(),
    status: text('status', { enum: toolPinStatuses }).notNull().default('pinned'),
    pendingHash: text('pending_hash'),
    fields: text('fields', { mode: 'json' }).$type<PinTexts>(),
    pendingFields: text('pending_fields', { mode: 'json' }).$type<PinTexts>(),
    firstSeenAt: createdAt('first_seen_at'),
    updatedAt: createdAt('updated_at'),
    // A constant default, as SQLite's ADD COLUMN needs: every write sets it, and 0005 filled old rows.
    lastSeenAt: instant('last_seen_at').notNull().default(sql`0`),
    serverRemovedAt: instant('server_removed_at'),
  },
  (t) => [primaryKey({ columns: [t.serverName, t.toolName] }), oneOf('tool_pins_status', t.status, toolPinStatuses)],
);

/** Tokens spent on sampling, per server and bot (X6); budgets sum these over a window. */
export const samplingUsageTable = sqliteTable(
  'sampling_usage',
  {
    id: uuidPk(),
    serverName: text('server_name').notNull(),
    botId: text('bot_id'),
    tokens: integer('tokens').notNull(),
    at: createdAt('at'),
  },
  (t) => [index('idx_sampling_usage_server_at').on(t.serverName, t.at)],
);

/**
 * Live stdio children (S6), so a run that starts after a crash can end the ones left behind.
 * `start_time` (field 22 of `/proc/<pid>/stat`) tells a reused pid from the original process.
 * `replica` is the replica that spawned it (ADR 041): on a shared database each replica
 * records and reaps only its own children (`''`: a row written before replicas had ids).
 */
export const upstreamProcessesTable = sqliteTable(
  'upstream_processes',
  {
    replica: text('replica').notNull().default(''),
    pid: integer('pid').notNull(),
    startTime: text('start_time').notNull(),
    serverId: text('server_id').notNull(),
    spawnedAt: createdAt('spawned_at'),
  },
  (t) => [primaryKey({ columns: [t.replica, t.pid] })],
);

/**
 * Sealed MCP session ids a `DELETE` ended (issue 22, ADR 039), by the id's digest (the id
 * itself is a bearer of its session, never stored): refused on every replica until they
 * would have expired anyway.
 */
export const closedSessionsTable = sqliteTable('closed_sessions', {
  digest: text('digest').primaryKey(),
  closedAt: createdAt('closed_at'),
});

/**
 * What a 2025-11-25 session's client changed about it (issue 22, ADR 039 §2): its logging
 * level (`item` `level`) and its resource subscriptions (`subscribe:<uri>`), by the sealed
 * id's digest, so a replica that rebuilds the session applies them too. Rows older than a
 * sealed id's lifetime are removed as new ones come.
 */
export const sessionStateTable = sqliteTable(
  'session_state',
  {
    digest: text('digest').notNull(),
    item: text('item').notNull(),
    value: text('value').notNull(),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [primaryKey({ columns: [t.digest, t.item] })],
);
