/**
 * Reading and pruning the audit log (SPEC X7, section 7 `GET /api/audit`).
 * @module
 */
import { and, desc, eq, gte, inArray, isNull, lt, or, type SQL } from 'drizzle-orm';
import { type AuditCursor, auditCursorOf } from './audit-cursor.js';
import { LIFECYCLE_EVENTS } from './audit-server-lifecycle.js';
import type { Db } from './create-db.js';
import { rowsAffected } from './db-dialect.js';
import { mcpAuditTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** One audit entry in the section 7 shape. */
/** The fields of an audit entry, in the order of the SPEC section 7 contract. */
export const AUDIT_ROW_FIELDS = [
  'id',
  'timestamp',
  'direction',
  'eventType',
  'serverName',
  'botId',
  'clientId',
  'clientName',
  'toolName',
  'inputHash',
  'outputHash',
  'durationMs',
  'success',
  'error',
  'sanitized',
  'tokenUsage',
  'count',
  'traceId',
] as const;

export type AuditRow = {
  id: string;
  /** ISO 8601. */
  timestamp: string;
  direction: 'client' | 'server';
  eventType: string;
  serverName: string | null;
  botId: string | null;
  clientId: string | null;
  /** The MCP client's `clientInfo` as `name/version`; null when the session did not know it. */
  clientName: string | null;
  toolName: string | null;
  inputHash: string | null;
  outputHash: string | null;
  durationMs: number | null;
  success: boolean;
  error: string | null;
  sanitized: boolean;
  tokenUsage: number | null;
  /** How many events the row stands for: 1, or the count of events counted per window (issue 17). */
  count: number;
  /** The trace of the request (issue 21); null when traces were off. */
  traceId: string | null;
};

/** Filters of {@link queryAudit}; each one given must match exactly. */
export type AuditFilters = {
  server?: string;
  bot?: string;
  /**
   * With `bot`: the servers of its view, whose lifecycle rows (`server_connected`,
   * `server_reconnect_scheduled`…, written for no bot) match as well as the bot's own, so
   * its audit says why one of its tools was unavailable.
   */
  botServers?: readonly string[];
  client?: string;
  /** The client's `name/version` as stored. */
  clientName?: string;
  direction?: 'client' | 'server';
  event?: string;
  tool?: string;
  /** Inclusive lower bound. */
  since?: Date;
  /** Exclusive upper bound. */
  until?: Date;
  /** Only the rows after this place in the log's order (older, or as old with a smaller id): the next page. */
  before?: AuditCursor;
  /** Only the rows that succeeded (true) or failed (false). */
  success?: boolean;
  /** Defaults to {@link AUDIT_DEFAULT_LIMIT}, capped at {@link AUDIT_MAX_LIMIT}. */
  limit?: number;
};

export const AUDIT_DEFAULT_LIMIT = 100;
export const AUDIT_MAX_LIMIT = 1_000;

/** Matching entries, newest first (timestamp, then id, descending). */
export async function queryAudit(db: Db, filters: AuditFilters = {}): Promise<AuditRow[]> {
  return selectAudit(db, filters, limitOf(filters.limit));
}

/** A page of matching entries, and the cursor of the next one (null: none is left). */
export async function queryAuditPage(
  db: Db,
  filters: AuditFilters = {},
): Promise<{ entries: AuditRow[]; nextCursor: string | null }> {
  const limit = limitOf(filters.limit);
  // One row more than asked says whether a next page has anything, so none is ever empty.
  const rows = await selectAudit(db, filters, limit + 1);
  const entries = rows.slice(0, limit);
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > limit && last ? auditCursorOf(last) : null };
}

/** `limit` as a whole number from 1 to {@link AUDIT_MAX_LIMIT}. */
function limitOf(limit: number | undefined): number {
  const requested = Math.trunc(limit ?? AUDIT_DEFAULT_LIMIT);
  return Math.min(Math.max(Number.isFinite(requested) ? requested : AUDIT_DEFAULT_LIMIT, 1), AUDIT_MAX_LIMIT);
}

async function selectAudit(db: Db, filters: AuditFilters, limit: number): Promise<AuditRow[]> {
  const t = mcpAuditTable;
  const conditions: SQL[] = [];
  if (filters.server !== undefined) conditions.push(eq(t.serverName, filters.server));
  if (filters.bot !== undefined) {
    const own = eq(t.botId, filters.bot);
    const servers = filters.botServers ?? [];
    const lifecycle =
      servers.length > 0
        ? and(isNull(t.botId), inArray(t.eventType, [...LIFECYCLE_EVENTS]), inArray(t.serverName, [...servers]))
        : undefined;
    conditions.push(lifecycle ? (or(own, lifecycle) as SQL) : own);
  }
  if (filters.client !== undefined) conditions.push(eq(t.clientId, filters.client));
  if (filters.clientName !== undefined) conditions.push(eq(t.clientName, filters.clientName));
  if (filters.direction !== undefined) conditions.push(eq(t.direction, filters.direction));
  if (filters.event !== undefined) conditions.push(eq(t.eventType, filters.event));
  if (filters.tool !== undefined) conditions.push(eq(t.toolName, filters.tool));
  if (filters.since !== undefined) conditions.push(gte(t.timestamp, filters.since));
  if (filters.until !== undefined) conditions.push(lt(t.timestamp, filters.until));
  if (filters.success !== undefined) conditions.push(eq(t.success, filters.success));
  if (filters.before !== undefined) {
    const { at, id } = filters.before;
    conditions.push(or(lt(t.timestamp, at), and(eq(t.timestamp, at), lt(t.id, id))) as SQL);
  }
  const rows = await db
    .select()
    .from(t)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(t.timestamp), desc(t.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    timestamp: r.timestamp.toISOString(),
    direction: r.direction,
    eventType: r.eventType,
    serverName: r.serverName,
    botId: r.botId,
    clientId: r.clientId,
    clientName: r.clientName,
    toolName: r.toolName,
    inputHash: r.inputHash,
    outputHash: r.outputHash,
    durationMs: r.durationMs,
    success: r.success,
    error: r.error,
    sanitized: r.sanitized,
    tokenUsage: r.tokenUsage,
    count: r.count ?? 1,
    traceId: r.traceId,
  }));
}

/** Delete the entries older than `olderThan` (retention, `audit.retentionDays`); returns how many. */
export async function pruneAudit(db: Db, olderThan: Date): Promise<number> {
  const result = await withBusyRetry(() => db.delete(mcpAuditTable).where(lt(mcpAuditTable.timestamp, olderThan)));
  return rowsAffected(result);
}
