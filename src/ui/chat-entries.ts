/**
 * A chat as the page shows it: the entries of the conversation, built from a turn's
 * streamed events as they come, or from a stored session's history when it is reopened.
 * A tool call and its result are one entry (one collapsible block). Pure, so the tests run it.
 * @module
 */
import type { ChatEvent, ChatHistory } from './api-types.js';

/** One tool call: its arguments and, once it answered, its result (the text the provider got). */
export type ToolEntry = {
  kind: 'tool';
  id: string;
  name: string;
  arguments: unknown;
  result: { text: string; isError: boolean } | null;
};

/** One entry of the conversation as shown. */
export type Entry =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; done: boolean }
  | ToolEntry
  | { kind: 'error'; text: string };

/** The arguments as the provider wrote them: JSON when they parse, else the string itself. */
function parsedArguments(raw: string): unknown {
  try {
    return JSON.parse(raw.trim() === '' ? '{}' : raw);
  } catch {
    return raw;
  }
}

/** `entries` with the result of call `id` set (the last call of that id). */
function answered(entries: readonly Entry[], id: string, name: string, result: ToolEntry['result']): Entry[] {
  const at = entries.findLastIndex((e) => e.kind === 'tool' && e.id === id);
  if (at === -1) return [...entries, { kind: 'tool', id, name, arguments: undefined, result }];
  return entries.map((e, i) => (i === at ? { ...(e as ToolEntry), result } : e));
}

/** The conversation after one streamed event. */
export function withEvent(entries: readonly Entry[], event: ChatEvent): Entry[] {
  const last = entries.at(-1);
  const open = last?.kind === 'assistant' && !last.done ? last : null;
  const rest = open ? entries.slice(0, -1) : [...entries];
  // The answer so far, finished: a tool call, the end or an error follows it.
  const before = open ? [...rest, { ...open, done: true }] : rest;
  switch (event.type) {
    case 'text':
      return [...rest, { kind: 'assistant', text: (open?.text ?? '') + event.delta, done: false }];
    case 'tool_call':
      return [...before, { kind: 'tool', id: event.id, name: event.name, arguments: event.arguments, result: null }];
    case 'tool_result':
      return answered(entries, event.id, event.name, { text: event.text, isError: event.isError });
    case 'final':
      return before;
    default:
      return [...before, { kind: 'error', text: event.message }];
  }
}

/** The conversation of a stored session, as it was shown when it happened. */
export function fromHistory(messages: ChatHistory['messages']): Entry[] {
  let entries: Entry[] = [];
  for (const m of messages) {
    if (m.role === 'user') entries.push({ kind: 'user', text: m.content });
    else if (m.role === 'assistant') {
      if (m.content) entries.push({ kind: 'assistant', text: m.content, done: true });
      for (const call of m.toolCalls ?? [])
        entries.push({
          kind: 'tool',
          id: call.id,
          name: call.name,
          arguments: parsedArguments(call.arguments),
          result: null,
        });
    } else if (m.role === 'tool')
      entries = answered(entries, m.toolCallId ?? '', m.toolName ?? 'tool', { text: m.content, isError: m.isError });
    else entries.push({ kind: 'error', text: m.content });
  }
  return entries;
}
