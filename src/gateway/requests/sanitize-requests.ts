/**
 * Upstream text that travels to the agent outside tool results (SPEC X4): the messages of
 * a sampling request, the message of an elicitation, an error's message, a server's
 * instructions and completion values all pass the sanitizer too.
 * @module
 */
import type { CreateMessageRequest, ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { sanitizeText } from '../../guard/sanitize-text.js';

const RESULT = { kind: 'result' as const };
const clean = (text: string, maxLength?: number) =>
  sanitizeText(text, maxLength === undefined ? RESULT : { ...RESULT, maxLength }).text;

/** A sampling request with its text messages and system prompt sanitized. */
export function sanitizeSampling(params: CreateMessageRequest['params']): CreateMessageRequest['params'] {
  const messages = params.messages.map((m) => {
    const content = m.content;
    if (!Array.isArray(content) && content.type === 'text')
      return { ...m, content: { ...content, text: clean(content.text) } };
    return m;
  });
  return { ...params, messages, ...(params.systemPrompt ? { systemPrompt: clean(params.systemPrompt) } : {}) };
}

/** An elicitation request with its message sanitized. */
export function sanitizeElicitation(params: ElicitRequest['params']): ElicitRequest['params'] {
  return { ...params, message: clean(params.message) };
}

/** Any other upstream string bound for the agent (instructions, error messages, completion values). */
export function sanitizeUpstreamText(text: string, maxLength?: number): string {
  return clean(text, maxLength);
}
