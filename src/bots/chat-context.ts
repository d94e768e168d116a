/**
 * What the provider is sent for a chat turn (SPEC B4): the bot's system prompt with its
 * memories, then the session's history as OpenAI messages. The history is repaired where a
 * turn was cut short, so a provider never sees a tool call without its result.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions/completions.js';
import type { ChatMessageRow } from '../storage/chat-repo.js';
import type { Bot } from './bot-schemas.js';
import type { Memory } from './memory-schemas.js';

/** The bot's own prompt (or a plain one from its name), followed by what it remembers. */
export function systemPrompt(bot: Bot, memories: readonly Memory[]): string {
  const own = bot.systemPrompt ?? `You are ${bot.name}.${bot.description ? ` ${bot.description}` : ''}`;
  if (memories.length === 0) return own;
  const lines = memories.map((m) => `- [${m.category}] ${m.content}`);
  return `${own}\n\nWhat you remember (newest first):\n${lines.join('\n')}`;
}

/** Tool names an OpenAI-compatible API accepts; the gateway's public names already match. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The bot's MCP tools as provider function tools. */
export function providerTools(tools: readonly Tool[]): ChatCompletionFunctionTool[] {
  return tools
    .filter((t) => TOOL_NAME.test(t.name))
    .map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        parameters: t.inputSchema as Record<string, unknown>,
      },
    }));
}

const INTERRUPTED = 'Error: no result, the turn ended before this tool answered';

/** Stored messages as provider messages: errors left out, unanswered tool calls answered as interrupted. */
export function historyMessages(rows: readonly ChatMessageRow[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  let pending: string[] = [];
  const closePending = () => {
    for (const id of pending) out.push({ role: 'tool', tool_call_id: id, content: INTERRUPTED });
    pending = [];
  };
  for (const row of rows) {
    if (row.role === 'tool') {
      // A result whose call fell outside the window (or was already closed) would be refused.
      if (!row.toolCallId || !pending.includes(row.toolCallId)) continue;
      pending = pending.filter((id) => id !== row.toolCallId);
      out.push({ role: 'tool', tool_call_id: row.toolCallId, content: row.content });
      continue;
    }
    closePending();
    if (row.role === 'user') out.push({ role: 'user', content: row.content });
    else if (row.role === 'assistant') {
      const calls = row.toolCalls ?? [];
      out.push({
        role: 'assistant',
        content: row.content || null,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      });
      pending = calls.map((c) => c.id);
    }
  }
  closePending();
  return out;
}
