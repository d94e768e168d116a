/**
 * One tool call the provider asked for during a chat (SPEC B4): only a tool that was offered
 * is called, and only through the bot's tool port, so the gateway's view, sanitizer and
 * audit apply. Whatever happens becomes a tool result the provider is told about.
 * @module
 */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '@opentelemetry/api';
import { toErrorInfo } from '../../machines/index.js';
import type { StoredToolCall } from '../storage/bot-schema.js';
import type { BotToolCaller } from './ports.js';
import { toolResultText } from './tool-result-text.js';

/** What came of one call; `text` is what the provider gets (prefixed `Error: ` when it failed). */
export type ToolOutcome = { args: unknown; result: CallToolResult | null; isError: boolean; text: string };

/** The provider's arguments string as JSON; undefined when it is not JSON. */
export const parseArguments = (raw: string): unknown => {
  try {
    return JSON.parse(raw.trim() === '' ? '{}' : raw);
  } catch {
    return undefined;
  }
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Run `call` for bot `slug` if it names an offered tool and carries a JSON object of arguments. */
export async function callChatTool(
  tools: BotToolCaller,
  slug: string,
  offered: ReadonlySet<string>,
  call: StoredToolCall,
  signal: AbortSignal,
  trace: Context | null = null,
): Promise<ToolOutcome> {
  const args = parseArguments(call.arguments);
  const refuse = (why: string): ToolOutcome => ({
    args: args ?? call.arguments,
    result: null,
    isError: true,
    text: `Error: ${why}`,
  });
  if (!offered.has(call.name)) return refuse(`tool "${call.name}" is not available to this bot; it was not called`);
  if (!isObject(args)) return refuse(`the arguments of "${call.name}" are not a JSON object; it was not called`);
  try {
    const result = await tools.callTool(slug, call.name, args, trace ? { signal, trace } : { signal });
    const text = toolResultText(result);
    return result.isError
      ? { args, result, isError: true, text: `Error: ${text || 'the tool reported an error'}` }
      : { args, result, isError: false, text };
  } catch (error) {
    return {
      args,
      result: null,
      isError: true,
      text: `Error: tool "${call.name}" failed: ${toErrorInfo(error).message}`,
    };
  }
}
