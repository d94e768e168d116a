/**
 * Starting a chat turn (SPEC B4, section 7 `POST /api/bots/{slug}/chat`): checks the
 * request, opens or finds the session, stores the user's message, and hands back the
 * session id and the turn's events to read.
 * @module
 */
import { BotItemNotFoundError, MessageTooLargeError } from '../errors.js';
import { findChatSession, insertChatSession } from '../storage/chat-repo.js';
import type { BotDeps } from './bot-deps.js';
import { type ChatEvent, ChatInputSchema } from './chat-schemas.js';
import { requireBotRow, toBot } from './get-bot.js';
import { parseInput } from './parse-input.js';
import { recordChatMessage } from './record-chat-message.js';
import { runChatTurn } from './run-chat-turn.js';

/** A started turn: read `events` to the end (or stop reading to interrupt it). */
export type ChatRun = { sessionId: string; events: AsyncGenerator<ChatEvent, void> };

const TITLE_CHARS = 80;

/**
 * Start a turn of bot `slug` with `{ message, sessionId? }`. Throws before anything is stored
 * for an unknown bot or session, a bad body, or a message over `limits.maxMessageChars`.
 */
export async function startChat(
  deps: BotDeps,
  slug: string,
  input: unknown,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ChatRun> {
  const row = await requireBotRow(deps.db, slug);
  const { message, sessionId } = parseInput(ChatInputSchema, input, 'chat message');
  if (message.length > deps.limits.maxMessageChars)
    throw new MessageTooLargeError(message.length, deps.limits.maxMessageChars);
  const session = sessionId
    ? await findChatSession(deps.db, row.id, sessionId)
    : await insertChatSession(deps.db, row.id, message.slice(0, TITLE_CHARS));
  if (!session) throw new BotItemNotFoundError('chat session', slug, sessionId ?? '');
  await recordChatMessage(deps, row.slug, session.id, { role: 'user', content: message });
  return { sessionId: session.id, events: runChatTurn(deps, { bot: toBot(row), sessionId: session.id, signal }) };
}
