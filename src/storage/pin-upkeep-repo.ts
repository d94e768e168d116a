/**
 * Rug-pull pins (SPEC X5), keeping `tool_pins` bounded: when tools were last seen, which
 * servers left the config, and forgetting the pins of gone tools and removed servers. Each
 * call is one transaction, whatever the number of tools.
 * @module
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from './create-db.js';
import { slicesOf } from './pin-repo.js';
import { toolPinsTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** Names per `IN (…)` list, well under SQLite's limit of bound values. */
const NAMES_PER_STATEMENT = 500;

/** Run one statement per slice of `tools` in one transaction; nothing for no tools. */
async function perSlice(db: Db, tools: readonly string[], statement: (names: string[]) => BatchItem<'sqlite'>) {
  const [first, ...rest] = slicesOf(tools, NAMES_PER_STATEMENT).map(statement);
  if (first) await withBusyRetry(() => db.batch([first, ...rest]));
}

/** Record that `server` listed `tools` at `at`. */
export async function touchPins(db: Db, server: string, tools: readonly string[], at: Date): Promise<void> {
  const t = toolPinsTable;
  await perSlice(db, tools, (names) =>
    db
      .update(t)
      .set({ lastSeenAt: at })
      .where(and(eq(t.serverName, server), inArray(t.toolName, names))),
  );
}

/** Forget the pins of `tools` of `server`. */
export async function forgetPins(db: Db, server: string, tools: readonly string[]): Promise<void> {
  const t = toolPinsTable;
  await perSlice(db, tools, (names) => db.delete(t).where(and(eq(t.serverName, server), inArray(t.toolName, names))));
}

/** Forget every pin of `server`. */
export async function forgetServerPins(db: Db, server: string): Promise<void> {
  await withBusyRetry(() => db.delete(toolPinsTable).where(eq(toolPinsTable.serverName, server)));
}

/** Mark the pins of `server` as those of a server gone from the config since `at`, or (null) configured again. */
export async function markServerRemoved(db: Db, server: string, at: Date | null): Promise<void> {
  await withBusyRetry(() =>
    db.update(toolPinsTable).set({ serverRemovedAt: at }).where(eq(toolPinsTable.serverName, server)),
  );
}
