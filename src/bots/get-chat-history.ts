/**
 * Reading a chat session back (SPEC B4): what was said, which tools ran with what result,
 * what failed, and the tokens spent.
 * @module
 */
import { BotItemNotFoundError } from '../errors.js';
import type { StoredToolCall } from '../storage/bot-schema.js';
import { chatSessionTotals, findChatSession, listChatMessages } from '../storage/chat-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';

/** One stored message; `data` holds a tool's whole result or an error's reason. */
export type ChatMessage = {
  id: number;
  role: 'user' | 'assistant' | 'tool' | 'error';
  content: string;
  toolCalls: StoredToolCall[] | null;
  toolCallId: string | null;
  toolName: string | null;
  isError: boolean;
  data: unknown;
  promptTokens: number | null;
  completionTokens: number | null;
  createdAt: string;
};

/** A session with its totals (over all its messages), its last activity, and its last `limit` messages, oldest first. */
export type ChatHistory = {
  sessionId: string;
  title: string;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
  createdAt: string;
  updatedAt: string;
  messages: ChatMessage[];
};

/** Session `sessionId` of bot `slug`; throws UnknownBotError or BotItemNotFoundError. */
export async function getChatHistory(
  { db }: { db: Db },
  slug: string,
  sessionId: string,
  { limit = 1_000 }: { limit?: number } = {},
): Promise<ChatHistory> {
  const bot = await requireBotRow(db, slug);
  const session = await findChatSession(db, bot.id, sessionId);
  if (!session) throw new BotItemNotFoundError('chat session', slug, sessionId);
  const [rows, totals] = await Promise.all([listChatMessages(db, session.id, limit), chatSessionTotals(db, session)]);
  return {
    sessionId: session.id,
    title: session.title,
    usage: {
      promptTokens: totals.promptTokens,
      completionTokens: totals.completionTokens,
      totalTokens: totals.promptTokens + totals.completionTokens,
    },
    createdAt: session.createdAt.toISOString(),
    updatedAt: totals.lastAt.toISOString(),
    messages: rows.map(({ sessionId: _session, createdAt, ...m }) => ({ ...m, createdAt: createdAt.toISOString() })),
  };
}
