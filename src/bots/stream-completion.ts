/**
 * One streamed provider call (SPEC B4): yields text as it arrives and returns the whole
 * answer, the tool calls assembled from their deltas, and the provider's token counts.
 * @module
 */
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions/completions.js';
import type { StoredToolCall } from '../storage/bot-schema.js';
import type { OpenProvider } from './open-provider.js';
import type { TokenUsage } from './ports.js';

/** A finished provider answer. `usage` is null when the provider reported none. */
export type Completion = {
  text: string;
  toolCalls: StoredToolCall[];
  usage: TokenUsage | null;
  finishReason: string | null;
};

/** The text received so far: kept by the caller so a failure mid-stream loses nothing. */
export type Received = { text: string };

/** Stream one completion; yields text deltas, returns the completion. Throws the `openai` client's errors. */
export async function* streamCompletion(
  { client, provider }: OpenProvider,
  messages: ChatCompletionMessageParam[],
  tools: ChatCompletionFunctionTool[],
  signal: AbortSignal,
  received: Received,
): AsyncGenerator<string, Completion> {
  const stream = await client.chat.completions.create(
    {
      model: provider.model,
      messages,
      ...(tools.length > 0 ? { tools } : {}),
      ...(provider.temperature !== null ? { temperature: provider.temperature } : {}),
      ...(provider.maxTokens !== null ? { max_tokens: provider.maxTokens } : {}),
      stream: true,
      stream_options: { include_usage: true },
    },
    { signal },
  );
  const calls = new Map<number, StoredToolCall>();
  let usage: TokenUsage | null = null;
  let finishReason: string | null = null;
  for await (const chunk of stream) {
    if (chunk.usage)
      usage = {
        promptTokens: chunk.usage.prompt_tokens,
        completionTokens: chunk.usage.completion_tokens,
        totalTokens: chunk.usage.total_tokens,
      };
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (delta?.content) {
      received.text += delta.content;
      yield delta.content;
    }
    for (const part of delta?.tool_calls ?? []) {
      const call = calls.get(part.index) ?? { id: '', name: '', arguments: '' };
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
      calls.set(part.index, call);
    }
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }));
  return { text: received.text, toolCalls, usage, finishReason };
}
