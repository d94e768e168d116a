/**
 * `chat__{slug}` (SPEC G8, B4): a chat turn as one MCP tool call. Each event of the turn is
 * reported as MCP progress when the caller asked for it (text as it streams, each tool
 * called and answered); the result is the bot's answer and the session id to continue.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BotDeps } from './bot-deps.js';
import type { ChatEvent } from './chat-schemas.js';
import type { BotToolContext } from './ports.js';
import { startChat } from './start-chat.js';

const progressMessage = (event: ChatEvent): string => {
  switch (event.type) {
    case 'text':
      return event.delta;
    case 'tool_call':
      return `calling ${event.name}`;
    case 'tool_result':
      return `${event.name} ${event.isError ? 'failed' : 'answered'}`;
    case 'final':
      return 'done';
    case 'error':
      return event.message;
  }
};

/** Run one turn of bot `slug` with `{ message, sessionId? }`. */
export async function chatAsTool(
  deps: BotDeps,
  slug: string,
  args: unknown,
  { signal, onProgress }: BotToolContext,
): Promise<CallToolResult> {
  const run = await startChat(deps, slug, args, { signal });
  const tools: { name: string; isError: boolean }[] = [];
  let progress = 0;
  for await (const event of run.events) {
    progress += 1;
    onProgress?.({ progress, message: progressMessage(event) });
    if (event.type === 'tool_result') tools.push({ name: event.name, isError: event.isError });
    if (event.type === 'final')
      return {
        content: [{ type: 'text', text: event.text }],
        structuredContent: { sessionId: event.sessionId, usage: event.usage, rounds: event.rounds, toolCalls: tools },
      };
    if (event.type === 'error')
      return {
        content: [{ type: 'text', text: event.message }],
        structuredContent: { sessionId: event.sessionId, reason: event.reason, usage: event.usage, toolCalls: tools },
        isError: true,
      };
  }
  return { content: [{ type: 'text', text: 'the chat ended without an answer' }], isError: true };
}
