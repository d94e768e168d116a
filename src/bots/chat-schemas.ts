/**
 * The shapes of chat (SPEC B4, section 7 `POST /api/bots/{slug}/chat`, G8 `chat__{slug}`):
 * the input, and the typed events a turn emits (sent as SSE by the API, as MCP progress by
 * `chat__{slug}`).
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { TokenUsage } from './ports.js';

/** One user message, in a new session or an existing one. The size limit is `limits.maxMessageChars`. */
export const ChatInputSchema = z
  .object({
    message: z.string().min(1, 'expected a non-empty message'),
    sessionId: z.uuid().optional(),
  })
  .strict();
export type ChatInput = z.infer<typeof ChatInputSchema>;

/** Why a turn ended without a final answer. */
export type ChatErrorReason =
  | 'no_provider'
  | 'no_credential'
  | 'provider_unreachable'
  | 'provider_failed'
  | 'tool_rounds'
  | 'cancelled'
  | 'internal';

/** What a chat turn emits, in order; it always ends with exactly one `final` or `error`. */
export type ChatEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | {
      type: 'tool_result';
      id: string;
      name: string;
      isError: boolean;
      /** What the provider is given: the result's text as the tool port returned it. */
      text: string;
      /** The whole result; null when the tool was not called (not offered, bad arguments). */
      result: CallToolResult | null;
    }
  | { type: 'final'; sessionId: string; text: string; usage: TokenUsage; rounds: number }
  | { type: 'error'; sessionId: string; reason: ChatErrorReason; message: string; usage: TokenUsage };
