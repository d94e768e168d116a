/**
 * API tokens (SPEC X1): made once, shown once, stored as a SHA-256 hash, revocable. A
 * token names a client and, optionally, the bot whose view it gets.
 * @module
 */
import { hash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from './create-db.js';
import { rowsAffected } from './db-dialect.js';
import { apiTokensTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A token as listed: never its secret nor its hash. */
export type TokenInfo = {
  id: string;
  name: string;
  bot: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

const hashOf = (token: string): string => hash('sha256', token, 'hex');
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Make a token; the returned `token` is the only time it exists in clear. */
export async function createToken(
  db: Db,
  { name, bot }: { name: string; bot?: string | null },
): Promise<{ id: string; token: string }> {
  const token = `bnt_${randomBytes(24).toString('base64url')}`;
  const [row] = await withBusyRetry(() =>
    db
      .insert(apiTokensTable)
      .values({ name, botSlug: bot ?? null, tokenHash: hashOf(token), prefix: token.slice(0, 12) })
      .returning({ id: apiTokensTable.id }),
  );
  if (!row) throw new Error('token insert returned no row');
  return { id: row.id, token };
}

/** Every token, newest first. */
export async function listTokens(db: Db): Promise<TokenInfo[]> {
  const rows = await db.select().from(apiTokensTable).orderBy(desc(apiTokensTable.createdAt));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    bot: r.botSlug,
    prefix: r.prefix,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: iso(r.lastUsedAt),
    revokedAt: iso(r.revokedAt),
  }));
}

/** Revoke a token; false when there is no such live token. */
export async function revokeToken(db: Db, id: string, at = new Date()): Promise<boolean> {
  const t = apiTokensTable;
  const result = await withBusyRetry(() =>
    db
      .update(t)
      .set({ revokedAt: at })
      .where(and(eq(t.id, id), isNull(t.revokedAt))),
  );
  return rowsAffected(result) > 0;
}

/** Revoke every live token of bot `slug` (the bot was deleted); resolves to their ids. */
export async function revokeBotTokens(db: Db, slug: string, at = new Date()): Promise<string[]> {
  const t = apiTokensTable;
  const rows = await withBusyRetry(() =>
    db
      .update(t)
      .set({ revokedAt: at })
      .where(and(eq(t.botSlug, slug), isNull(t.revokedAt)))
      .returning({ id: t.id }),
  );
  return rows.map((row) => row.id);
}

/** The live token row for a presented token, or null (unknown or revoked). */
export async function findLiveToken(
  db: Db,
  token: string,
): Promise<{ id: string; name: string; bot: string | null } | null> {
  const t = apiTokensTable;
  const [row] = await db
    .select({ id: t.id, name: t.name, bot: t.botSlug })
    .from(t)
    .where(and(eq(t.tokenHash, hashOf(token)), isNull(t.revokedAt)))
    .limit(1);
  return row ?? null;
}

/** Record use (callers throttle this: it is a write). */
export async function touchToken(db: Db, id: string, at = new Date()): Promise<void> {
  await withBusyRetry(() => db.update(apiTokensTable).set({ lastUsedAt: at }).where(eq(apiTokensTable.id, id)));
}
