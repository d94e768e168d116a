/**
 * The persisted mirror of each connection actor's state (SPEC S1, S4). Only the statechart
 * owns state: the hub writes a full snapshot here on every transition, nothing else does.
 * @module
 */
import { type AnyColumn, and, asc, eq, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from './create-db.js';
import { rowsAffected } from './db-dialect.js';
import { mcpConnectionsTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A row of `mcp_connections` as read. */
export type ConnectionRow = typeof mcpConnectionsTable.$inferSelect;

/**
 * A connection snapshot to write. Omitted optional columns are reset (to null or 0), so a
 * snapshot never keeps a stale field from an earlier state; `updatedAt` defaults to now.
 */
export type ConnectionSnapshot = Pick<ConnectionRow, 'id' | 'serverName' | 'transportType' | 'status'> &
  Partial<Omit<ConnectionRow, 'id' | 'serverName' | 'transportType' | 'status'>>;

/**
 * Id of the shared (not per-bot, not per-session) connection row of `server`. Replicas that
 * share a database each run their own connections (issue 22, docs/cluster.md): each writes
 * its own row, `global@<replica>/<server>` (a replica id never holds `/`); alone on its
 * database a process keeps `global:<server>`.
 */
export function globalConnectionId(server: string, replica?: string): string {
  return replica === undefined ? `global:${server}` : `global@${replica}/${server}`;
}

/** Insert the connection row, or replace every column of the existing one with the same id. */
export async function upsertConnection(db: Db, snapshot: ConnectionSnapshot): Promise<void> {
  const row: ConnectionRow = {
    botId: null,
    attempt: 0,
    nextRetryAt: null,
    connectedAt: null,
    disconnectedAt: null,
    lastHealthPing: null,
    pingLatencyMs: null,
    errorMessage: null,
    pid: null,
    toolCount: 0,
    resourceCount: 0,
    resourceTemplateCount: 0,
    promptCount: 0,
    ...withoutUndefined(snapshot),
    updatedAt: snapshot.updatedAt ?? new Date(),
  };
  const { id: _id, ...changes } = row;
  await withBusyRetry(() =>
    db.insert(mcpConnectionsTable).values(row).onConflictDoUpdate({ target: mcpConnectionsTable.id, set: changes }),
  );
}

/** Delete the row of a connection that no longer exists (its server was removed). */
export async function deleteConnection(db: Db, id: string): Promise<void> {
  await withBusyRetry(() => db.delete(mcpConnectionsTable).where(eq(mcpConnectionsTable.id, id)));
}

/** Every connection row, by server name, then id. */
export async function listConnections(db: Db): Promise<ConnectionRow[]> {
  return db
    .select()
    .from(mcpConnectionsTable)
    .orderBy(asc(mcpConnectionsTable.serverName), asc(mcpConnectionsTable.id));
}

/**
 * At start, mark every row a previous run left in a live state as `disconnected`: no actor
 * owns it yet, and its pid and retry time are gone. `disabled` rows stay as they are. A row
 * that was `connected` disconnected now; others keep the time they lost their connection.
 * With `replica`, only that replica's rows (cluster mode). Returns the number of rows changed.
 */
export async function markAllDisconnected(db: Db, at: Date = new Date(), replica?: string): Promise<number> {
  const t = mcpConnectionsTable;
  const result = await withBusyRetry(() =>
    db
      .update(t)
      .set({
        status: 'disconnected',
        pid: null,
        nextRetryAt: null,
        disconnectedAt: sql`case when ${t.status} = 'connected' then ${at.getTime()} else coalesce(${t.disconnectedAt}, ${at.getTime()}) end`,
        updatedAt: at,
      })
      .where(
        and(
          notInArray(t.status, ['disabled', 'disconnected']),
          // A replica's start says nothing of the connections the others still hold.
          replica === undefined ? undefined : startsWith(t.id, globalConnectionId('', replica)),
        ),
      ),
  );
  return rowsAffected(result);
}

/** `column` begins with `prefix` (no LIKE: a replica id may hold `_`); SQLite and PostgreSQL alike. */
const startsWith = (column: AnyColumn, prefix: string): SQL => sql`substr(${column}, 1, ${prefix.length}) = ${prefix}`;

/** `{ ...defaults, ...snapshot }` must not let an explicit `undefined` erase a default. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
