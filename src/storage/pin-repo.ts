/**
 * Rug-pull pins (SPEC X5), the stored part: one row per server and tool with the hash first
 * seen, and, while quarantined, the hash that replaced it. Every write retries a busy lock.
 * @module
 */
import { and, eq, sql } from 'drizzle-orm';
import type { PinnedFields } from '../guard/tool-fingerprint.js';
import type { Db } from './create-db.js';
import { toolPinsTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A pin as the guard keeps it in memory. */
export type ToolPin = {
  server: string;
  tool: string;
  hash: string;
  status: 'pinned' | 'quarantined' | 'approved';
  pendingHash: string | null;
};

const where = (server: string, tool: string) =>
  and(eq(toolPinsTable.serverName, server), eq(toolPinsTable.toolName, tool));

/** Every pin. */
export async function listPins(db: Db): Promise<ToolPin[]> {
  const t = toolPinsTable;
  const rows = await db
    .select({ server: t.serverName, tool: t.toolName, hash: t.hash, status: t.status, pendingHash: t.pendingHash })
    .from(t);
  return rows;
}

/** A tool seen for the first time: its hash, and the texts the hash covers. */
export type NewPin = { readonly tool: string; readonly hash: string; readonly fields: PinnedFields | null };

/** Rows per INSERT: 7 bound values each, well under SQLite's limit of bound values. */
const ROWS_PER_INSERT = 200;

/**
 * Pin the tools of `server` seen for the first time, all in one transaction (one commit for
 * a whole catalog, not one per tool); a pin already there is left as it is.
 */
export async function insertPins(db: Db, server: string, pins: readonly NewPin[]): Promise<void> {
  const inserts = [];
  for (let start = 0; start < pins.length; start += ROWS_PER_INSERT)
    inserts.push(
      db
        .insert(toolPinsTable)
        .values(
          pins.slice(start, start + ROWS_PER_INSERT).map(({ tool, hash, fields }) => ({
            serverName: server,
            toolName: tool,
            hash,
            status: 'pinned' as const,
            fields,
          })),
        )
        .onConflictDoNothing(),
    );
  const [first, ...rest] = inserts;
  if (first) await withBusyRetry(() => db.batch([first, ...rest]));
}

/** Quarantine a pinned tool whose hash became `pendingHash`, with its new texts (the pinned hash stays). */
export async function quarantinePin(
  db: Db,
  server: string,
  tool: string,
  pendingHash: string,
  { at = new Date(), fields = null }: { at?: Date; fields?: PinnedFields | null } = {},
): Promise<void> {
  await withBusyRetry(() =>
    db
      .update(toolPinsTable)
      .set({ status: 'quarantined', pendingHash, pendingFields: fields, updatedAt: at })
      .where(where(server, tool)),
  );
}

/** A quarantined tool as an operator reviews it: what was pinned and what replaced it. */
export type Quarantine = {
  server: string;
  tool: string;
  hash: string;
  pendingHash: string;
  since: Date;
  pinned: PinnedFields | null;
  pending: PinnedFields | null;
};

/** Every quarantined pin, oldest change first. */
export async function listQuarantines(db: Db): Promise<Quarantine[]> {
  const t = toolPinsTable;
  const rows = await db
    .select({
      server: t.serverName,
      tool: t.toolName,
      hash: t.hash,
      pendingHash: t.pendingHash,
      since: t.updatedAt,
      pinned: t.fields,
      pending: t.pendingFields,
    })
    .from(t)
    .where(eq(t.status, 'quarantined'))
    .orderBy(t.updatedAt, t.serverName, t.toolName);
  return rows.flatMap((row) => (row.pendingHash === null ? [] : [{ ...row, pendingHash: row.pendingHash }]));
}

/**
 * Accept a quarantined tool's new hash: it becomes the pin. Returns the hash approved, or null
 * when the tool is not quarantined.
 */
export async function approvePin(
  db: Db,
  server: string,
  tool: string,
  at = new Date(),
  expectedHash?: string,
): Promise<string | null> {
  const t = toolPinsTable;
  const [row] = await withBusyRetry(() =>
    db.select({ status: t.status, pendingHash: t.pendingHash }).from(t).where(where(server, tool)).limit(1),
  );
  if (row?.status !== 'quarantined' || !row.pendingHash) return null;
  // The operator reviewed one change: another one since then is not what they approved.
  if (expectedHash !== undefined && row.pendingHash !== expectedHash) return null;
  const pending = row.pendingHash;
  const result = await withBusyRetry(() =>
    db
      .update(t)
      // SQLite reads every right-hand side from the row as it was: the pending texts become the pinned ones.
      .set({
        hash: pending,
        status: 'approved',
        pendingHash: null,
        fields: sql`${t.pendingFields}`,
        pendingFields: null,
        updatedAt: at,
      })
      .where(and(where(server, tool), eq(t.status, 'quarantined'), eq(t.pendingHash, pending))),
  );
  return result.rowsAffected > 0 ? pending : null;
}
