/**
 * The PostgreSQL schema (ADR 036): every table of `schema.ts` and `bot-schema.ts`, column
 * for column, in the SQLite encodings (see `pg-columns.ts`). drizzle-kit generates the
 * migrations in `drizzle/pg/` from this file (`npm run db:generate:pg`); the queries are
 * built on the SQLite tables, so this file is not imported at run time. Change both schemas
 * together: `test/storage/pg-schema.test.ts` compares them.
 * @module
 */
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { auditDirections, connectionStatuses, toolPinStatuses, transportTypes } from '../schema.js';
import { botsTable } from './pg-bot-schema.js';
import { createdAt, instant, oneOf, textPk } from './pg-columns.js';

export * from './pg-bot-schema.js';
export * from './pg-cluster-schema.js';
export * from './pg-fleet-schema.js';
export * from './pg-replica-schema.js';

export const mcpConnectionsTable = pgTable(
  'mcp_connections',
  {
    id: text('id').primaryKey(),
    serverName: text('server_name').notNull(),
    transportType: text('transport_type').notNull(),
    status: text('status').notNull(),
    botId: text('bot_id'),
    attempt: integer('attempt').notNull().default(0),
    nextRetryAt: instant('next_retry_at'),
    connectedAt: instant('connected_at'),
    disconnectedAt: instant('disconnected_at'),
    lastHealthPing: instant('last_health_ping'),
    pingLatencyMs: integer('ping_latency_ms'),
    errorMessage: text('error_message'),
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

export const mcpAuditTable = pgTable(
  'mcp_audit',
  {
    id: textPk(),
    direction: text('direction').notNull(),
    eventType: text('event_type').notNull(),
    serverName: text('server_name'),
    botId: text('bot_id'),
    clientId: text('client_id'),
    clientName: text('client_name'),
    toolName: text('tool_name'),
    inputHash: text('input_hash'),
    outputHash: text('output_hash'),
    durationMs: integer('duration_ms'),
    success: integer('success').notNull().default(1),
    error: text('error'),
    sanitized: integer('sanitized').notNull().default(0),
    tokenUsage: integer('token_usage'),
    timestamp: createdAt('timestamp'),
    count: integer('count'),
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

export const apiTokensTable = pgTable(
  'api_tokens',
  {
    id: textPk(),
    name: text('name').notNull(),
    botId: text('bot_id').references(() => botsTable.id, { onDelete: 'cascade' }),
    botSlug: text('bot_slug'),
    tokenHash: text('token_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    createdAt: createdAt('created_at'),
    lastUsedAt: instant('last_used_at'),
    revokedAt: instant('revoked_at'),
  },
  (t) => [index('idx_api_tokens_bot').on(t.botId)],
);

export const toolPinsTable = pgTable(
  'tool_pins',
  {
    serverName: text('server_name').notNull(),
    toolName: text('tool_name').notNull(),
    hash: text('hash').notNull(),
    status: text('status').notNull().default('pinned'),
    pendingHash: text('pending_hash'),
    fields: text('fields'),
    pendingFields: text('pending_fields'),
    firstSeenAt: createdAt('first_seen_at'),
    updatedAt: createdAt('updated_at'),
    lastSeenAt: instant('last_seen_at').notNull().default(0),
    serverRemovedAt: instant('server_removed_at'),
  },
  (t) => [primaryKey({ columns: [t.serverName, t.toolName] }), oneOf('tool_pins_status', t.status, toolPinStatuses)],
);

export const samplingUsageTable = pgTable(
  'sampling_usage',
  {
    id: textPk(),
    serverName: text('server_name').notNull(),
    botId: text('bot_id'),
    tokens: integer('tokens').notNull(),
    at: createdAt('at'),
  },
  (t) => [index('idx_sampling_usage_server_at').on(t.serverName, t.at)],
);

export const upstreamProcessesTable = pgTable(
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

export const closedSessionsTable = pgTable('closed_sessions', {
  digest: text('digest').primaryKey(),
  closedAt: createdAt('closed_at'),
});

export const sessionStateTable = pgTable(
  'session_state',
  {
    digest: text('digest').notNull(),
    item: text('item').notNull(),
    value: text('value').notNull(),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [primaryKey({ columns: [t.digest, t.item] })],
);
