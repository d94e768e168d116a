/**
 * MCP sampling to OpenAI chat completions and back (SPEC G6): messages with text, images,
 * audio, tool uses and tool results; tools and tool choice; the answer as a
 * `CreateMessageResult` (with tool uses when the request offered tools).
 * @module
 */
import type {
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  SamplingMessageContentBlock,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  ChatCompletion,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions/completions.js';
import { BotInputError, ProviderError } from '../errors.js';
import { providerTools } from './chat-context.js';

type Params = CreateMessageRequest['params'];

const AUDIO_FORMATS: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

const blocksOf = (content: SamplingMessageContentBlock | SamplingMessageContentBlock[]) =>
  Array.isArray(content) ? content : [content];

const textOfBlocks = (blocks: readonly { type: string; text?: string }[]) =>
  blocks.map((b) => (b.type === 'text' ? (b.text ?? '') : `[${b.type}]`)).join('\n');

function userPart(block: SamplingMessageContentBlock): ChatCompletionContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image_url', image_url: { url: `data:${block.mimeType};base64,${block.data}` } };
    case 'audio': {
      const format = AUDIO_FORMATS[block.mimeType];
      if (!format) throw new BotInputError(`sampling audio of type ${block.mimeType} cannot be sent to the provider`);
      return { type: 'input_audio', input_audio: { data: block.data, format } };
    }
    default:
      throw new BotInputError(`a user message cannot carry ${block.type} content`);
  }
}

/** The provider messages for a sampling request: its system prompt, then its messages in order. */
export function toProviderMessages(params: Params): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = params.systemPrompt
    ? [{ role: 'system', content: params.systemPrompt }]
    : [];
  for (const message of params.messages) {
    const blocks = blocksOf(message.content);
    if (message.role === 'assistant') {
      const uses = blocks.filter((b) => b.type === 'tool_use');
      const rest = blocks.filter((b) => b.type !== 'tool_use');
      if (rest.some((b) => b.type !== 'text'))
        throw new BotInputError('an assistant message can carry only text and tool uses');
      out.push({
        role: 'assistant',
        content: rest.length > 0 ? textOfBlocks(rest) : null,
        ...(uses.length > 0
          ? {
              tool_calls: uses.map((u) => ({
                id: u.id,
                type: 'function' as const,
                function: { name: u.name, arguments: JSON.stringify(u.input) },
              })),
            }
          : {}),
      });
      continue;
    }
    // Tool results answer the assistant's tool calls, so they come right after it.
    for (const block of blocks)
      if (block.type === 'tool_result')
        out.push({ role: 'tool', tool_call_id: block.toolUseId, content: textOfBlocks(block.content) });
    const parts = blocks.filter((b) => b.type !== 'tool_result').map(userPart);
    if (parts.length > 0) out.push({ role: 'user', content: parts });
  }
  return out;
}

/** The request's tools and tool choice in the provider's terms. */
export function toProviderToolOptions(params: Params) {
  const tools = providerTools(params.tools ?? []);
  const choice: ChatCompletionToolChoiceOption | undefined = params.toolChoice?.mode;
  return tools.length > 0 ? { tools, ...(choice ? { tool_choice: choice } : {}) } : {};
}

const STOP_REASONS: Readonly<Record<string, string>> = {
  stop: 'endTurn',
  length: 'maxTokens',
  tool_calls: 'toolUse',
};

/** The provider's answer as a sampling result; with tools offered, tool calls become `tool_use` blocks. */
export function toSamplingResult(
  completion: ChatCompletion,
  params: Params,
  model: string,
): CreateMessageResult | CreateMessageResultWithTools {
  const choice = completion.choices[0];
  if (!choice) throw new ProviderError('provider_failed', 'the provider answered with no choice');
  const text = choice.message.content ?? '';
  const stopReason = STOP_REASONS[choice.finish_reason] ?? choice.finish_reason;
  const base = { role: 'assistant' as const, model: completion.model || model, stopReason };
  if (!params.tools?.length) return { ...base, content: { type: 'text', text } };
  const uses = (choice.message.tool_calls ?? []).flatMap((call) => {
    if (call.type !== 'function') return [];
    let input: unknown;
    try {
      input = JSON.parse(call.function.arguments || '{}');
    } catch {
      throw new ProviderError(
        'provider_failed',
        `the provider called "${call.function.name}" with arguments that are not JSON`,
      );
    }
    return [
      { type: 'tool_use' as const, id: call.id, name: call.function.name, input: input as Record<string, unknown> },
    ];
  });
  const content = [...(text || uses.length === 0 ? [{ type: 'text' as const, text }] : []), ...uses];
  return { ...base, content };
}
