/**
 * Chat history (SPEC B4): sessions of a bot and their messages in order, with the token
 * usage of every provider call on its assistant message.
 * @module
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { botChatMessagesTable, botChatSessionsTable } from './bot-schema.js';
import type { Db } from './create-db.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A `bot_chat_sessions` row. */
export type ChatSessionRow = typeof botChatSessionsTable.$inferSelect;
/** A `bot_chat_messages` row. */
export type ChatMessageRow = typeof botChatMessagesTable.$inferSelect;
/** What a new message carries. */
export type NewChatMessage = Omit<typeof botChatMessagesTable.$inferInsert, 'id' | 'sessionId' | 'createdAt'>;

/** Open a new session of bot `botId`. */
export async function insertChatSession(db: Db, botId: string, title: string): Promise<ChatSessionRow> {
  const [row] = await withBusyRetry(() => db.insert(botChatSessionsTable).values({ botId, title }).returning());
  if (!row) throw new Error('chat session insert returned no row');
  return row;
}

/** Session `id` of bot `botId`, or null (a session of another bot is not found either). */
export async function findChatSession(db: Db, botId: string, id: string): Promise<ChatSessionRow | null> {
  const t = botChatSessionsTable;
  const [row] = await db
    .select()
    .from(t)
    .where(and(eq(t.id, id), eq(t.botId, botId)))
    .limit(1);
  return row ?? null;
}

/** Append a message to session `sessionId`. */
export async function appendChatMessage(db: Db, sessionId: string, message: NewChatMessage): Promise<void> {
  await withBusyRetry(() => db.insert(botChatMessagesTable).values({ ...message, sessionId }));
}

/** The last `limit` messages of a session, oldest first. */
export async function listChatMessages(db: Db, sessionId: string, limit: number): Promise<ChatMessageRow[]> {
  const t = botChatMessagesTable;
  const rows = await db.select().from(t).where(eq(t.sessionId, sessionId)).orderBy(desc(t.id)).limit(limit);
  return rows.reverse();
}

/** A session's token totals and the time of its last message (its creation when it has none). */
export async function chatSessionTotals(
  db: Db,
  session: ChatSessionRow,
): Promise<{ promptTokens: number; completionTokens: number; lastAt: Date }> {
  const t = botChatMessagesTable;
  const [row] = await db
    .select({
      prompt: sql<number | null>`sum(${t.promptTokens})`,
      completion: sql<number | null>`sum(${t.completionTokens})`,
      last: sql<number | null>`max(${t.createdAt})`,
    })
    .from(t)
    .where(eq(t.sessionId, session.id));
  return {
    promptTokens: Number(row?.prompt ?? 0),
    completionTokens: Number(row?.completion ?? 0),
    lastAt: row?.last ? new Date(Number(row.last)) : session.createdAt,
  };
}

/** A session of a bot with the time of its last message. */
export type ChatSessionSummary = { id: string; title: string; createdAt: Date; lastAt: Date };

/** The sessions of bot `botId`, most recently active first, at most `limit`. */
export async function listChatSessions(db: Db, botId: string, limit: number): Promise<ChatSessionSummary[]> {
  const s = botChatSessionsTable;
  const m = botChatMessagesTable;
  const last = sql<number | null>`max(${m.createdAt})`;
  const rows = await db
    .select({ id: s.id, title: s.title, createdAt: s.createdAt, last })
    .from(s)
    .leftJoin(m, eq(m.sessionId, s.id))
    .where(eq(s.botId, botId))
    .groupBy(s.id)
    .orderBy(desc(sql`coalesce(${last}, ${s.createdAt})`))
    .limit(limit);
  return rows.map((r) => ({ ...r, lastAt: r.last ? new Date(Number(r.last)) : r.createdAt }));
}
