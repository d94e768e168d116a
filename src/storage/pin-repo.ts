/**
 * Rug-pull pins (SPEC X5), the stored part: one row per server and tool with the hash first
 * seen, and, while quarantined, the hash that replaced it, each with bounded texts for review
 * (`guard/pin-texts.ts`). Forgetting pins and refreshing when they were seen is
 * `pin-upkeep-repo.ts`. Every write retries a busy lock.
 * @module
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PinTexts } from '../guard/pin-texts.js';
import type { Db } from './create-db.js';
import { rowsAffected } from './db-dialect.js';
import { toolPinsTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A pin as the guard keeps it in memory. */
export type ToolPin = {
  server: string;
  tool: string;
  hash: string;
  status: 'pinned' | 'quarantined' | 'approved';
  pendingHash: string | null;
  /** When its server last listed it (ms; refreshed at most once per touch interval). */
  lastSeenAt: number;
  /** When its server left the config (ms), or null while configured. */
  serverRemovedAt: number | null;
};

const where = (server: string, tool: string) =>
  and(eq(toolPinsTable.serverName, server), eq(toolPinsTable.toolName, tool));

/** Every pin (without its texts), or the pins of `server` alone. */
export async function listPins(db: Db, server?: string): Promise<ToolPin[]> {
  const t = toolPinsTable;
  const rows = await db
    .select({
      server: t.serverName,
      tool: t.toolName,
      hash: t.hash,
      status: t.status,
      pendingHash: t.pendingHash,
      lastSeenAt: t.lastSeenAt,
      serverRemovedAt: t.serverRemovedAt,
    })
    .from(t)
    .where(server === undefined ? undefined : eq(t.serverName, server));
  return rows.map((row) => ({
    ...row,
    lastSeenAt: row.lastSeenAt.getTime(),
    serverRemovedAt: row.serverRemovedAt?.getTime() ?? null,
  }));
}

/** A tool seen for the first time: its hash, and the bounded texts the hash covers. */
export type NewPin = { readonly tool: string; readonly hash: string; readonly texts: PinTexts | null };

/** Rows per INSERT: 7 bound values each, well under SQLite's limit of bound values. */
const ROWS_PER_INSERT = 200;
/** Names per `IN (…)` list, for the same reason. */
const NAMES_PER_STATEMENT = 500;

/** `items` in slices of `size`. */
export function slicesOf<T>(items: readonly T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < items.length; start += size) slices.push(items.slice(start, start + size));
  return slices;
}

/**
 * Pin the tools of `server` seen for the first time, and forget the pins `evict` names (the
 * per-server cap), all in one transaction (one commit for a whole catalog, not one per
 * tool); a pin already there is left as it is.
 */
export async function insertPins(
  db: Db,
  server: string,
  pins: readonly NewPin[],
  { at = new Date(), evict = [] }: { at?: Date; evict?: readonly string[] } = {},
): Promise<void> {
  const t = toolPinsTable;
  const statements = [
    ...slicesOf(evict, NAMES_PER_STATEMENT).map((names) =>
      db.delete(t).where(and(eq(t.serverName, server), inArray(t.toolName, names))),
    ),
    ...slicesOf(pins, ROWS_PER_INSERT).map((slice) =>
      db
        .insert(t)
        .values(
          slice.map(({ tool, hash, texts }) => ({
            serverName: server,
            toolName: tool,
            hash,
            status: 'pinned' as const,
            fields: texts,
            firstSeenAt: at,
            updatedAt: at,
            lastSeenAt: at,
          })),
        )
        .onConflictDoNothing(),
    ),
  ];
  const [first, ...rest] = statements;
  if (first) await withBusyRetry(() => db.batch([first, ...rest]));
}

/** A pending change to write: a quarantined tool's newest hash and texts. */
export type PendingChange = { readonly tool: string; readonly pendingHash: string; readonly texts: PinTexts | null };

/**
 * Quarantine several tools of `server` at once (one transaction): how a server that stopped
 * churning gets the changes that were only counted meanwhile written.
 */
export async function quarantinePins(
  db: Db,
  server: string,
  changes: readonly PendingChange[],
  at = new Date(),
): Promise<void> {
  const [first, ...rest] = changes.map(({ tool, pendingHash, texts }) =>
    db
      .update(toolPinsTable)
      .set({ status: 'quarantined', pendingHash, pendingFields: texts, updatedAt: at, lastSeenAt: at })
      .where(where(server, tool)),
  );
  if (first) await withBusyRetry(() => db.batch([first, ...rest]));
}

/** A quarantined tool as an operator reviews it: what was pinned and what replaced it. */
export type Quarantine = {
  server: string;
  tool: string;
  hash: string;
  pendingHash: string;
  since: Date;
  pinned: PinTexts | null;
  pending: PinTexts | null;
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
  return rowsAffected(result) > 0 ? pending : null;
}
