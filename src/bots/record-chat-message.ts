/**
 * Storing a chat message and saying so (SPEC B4, issue 18): every message a turn adds to a
 * bot's history (the user's, the assistant's, a tool result, an error) is appended, then
 * published as a `chat_message` with a bounded, masked excerpt, for `/api/events` and the
 * MCP sessions that see the bot. Publishing never waits and never fails the turn.
 * @module
 */
import { appendChatMessage, type NewChatMessage } from '../storage/chat-repo.js';
import type { BotDeps } from './bot-deps.js';
import { chatExcerpt } from './chat-excerpt.js';

/** Append `message` to session `sessionId` of bot `slug`, then publish it. */
export async function recordChatMessage(
  { db, events, secrets, log }: Pick<BotDeps, 'db' | 'events' | 'secrets' | 'log'>,
  slug: string,
  sessionId: string,
  message: NewChatMessage,
): Promise<void> {
  await appendChatMessage(db, sessionId, message);
  const content = message.content ?? '';
  const asked = (message.toolCalls ?? []).map((call) => call.name);
  try {
    events.publish({
      type: 'chat_message',
      server: null,
      bot: slug,
      sessionId,
      role: message.role,
      tools: message.toolName ? [message.toolName] : asked,
      ...chatExcerpt(content, secrets),
      chars: content.length,
    });
  } catch (error) {
    log.warn({ err: error, bot: slug, sessionId }, 'chat message event not published');
  }
}
