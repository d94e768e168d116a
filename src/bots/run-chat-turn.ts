/**
 * The agent loop of one chat turn (SPEC B4, ADR 008): ask the bot's provider with its
 * system prompt, memories, history and effective tools; run the tools it asks for through
 * the tool port; feed the results back; repeat until it answers without tools or the round
 * limit is reached. Every message, result, usage and failure is stored as it happens.
 * @module
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions/completions.js';
import { toErrorInfo } from '../../machines/index.js';
import { ProviderError } from '../errors.js';
import { listMemoryRows } from '../storage/bot-memory-repo.js';
import { listChatMessages, type NewChatMessage } from '../storage/chat-repo.js';
import type { BotDeps } from './bot-deps.js';
import type { Bot } from './bot-schemas.js';
import { callChatTool, parseArguments } from './call-chat-tool.js';
import { historyMessages, providerTools, systemPrompt } from './chat-context.js';
import type { ChatErrorReason, ChatEvent } from './chat-schemas.js';
import { startChatSpans } from './chat-spans.js';
import { toMemory } from './memory-schemas.js';
import { type OpenProvider, openProvider } from './open-provider.js';
import type { TokenUsage } from './ports.js';
import { toProviderError } from './provider-error.js';
import { recordChatMessage } from './record-chat-message.js';
import { type Completion, streamCompletion } from './stream-completion.js';

/**
 * A signal of its own for each provider or tool call: the `openai` client and the SDK add an
 * abort listener per request and keep it, which would pile up on the turn's signal.
 */
const perCall = (signal: AbortSignal): AbortSignal => AbortSignal.any([signal]);

/** One turn to run: the user's message is already stored in the session. */
export type ChatTurn = { bot: Bot; sessionId: string; signal?: AbortSignal | undefined };

/** Run one turn; the events end with exactly one `final` or `error`. */
export async function* runChatTurn(
  deps: BotDeps,
  { bot, sessionId, signal: outer }: ChatTurn,
): AsyncGenerator<ChatEvent, void> {
  const { db, tools, limits, log } = deps;
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  // Traces on: the turn, each LLM call and each tool call are spans (issue 21).
  const spans = startChatSpans(deps.tracer, bot, sessionId);
  let failure: string | null = 'interrupted';
  const controller = new AbortController();
  const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
  // Each message stored is also published (issue 18).
  const append = (message: NewChatMessage) => recordChatMessage(deps, bot.slug, sessionId, message);
  let ended = false;
  // Text of the answer being streamed, not yet stored (kept if the turn is cut short).
  let received = { text: '' };
  const end = async (reason: ChatErrorReason, message: string): Promise<ChatEvent> => {
    ended = true;
    failure = reason;
    await append({ role: 'error', content: message, isError: true, data: { reason } });
    return { type: 'error', sessionId, reason, message, usage: { ...usage } };
  };
  try {
    let provider: OpenProvider;
    try {
      provider = await openProvider(bot, deps);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      yield await end(error.reason as ChatErrorReason, error.message);
      return;
    }
    const offered = providerTools(
      await tools.listTools(bot.slug).catch((error: unknown) => {
        log.warn({ err: error, bot: bot.slug }, 'bot tools unavailable; chatting without them');
        return [];
      }),
    );
    const offeredNames = new Set(offered.map((t) => t.function.name));
    const memories = limits.memoriesInPrompt
      ? (await listMemoryRows(db, bot.id, { limit: limits.memoriesInPrompt })).map(toMemory)
      : [];
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: systemPrompt(bot, memories) },
      ...historyMessages(await listChatMessages(db, sessionId, limits.historyMessages)),
    ];
    for (let round = 1; ; round += 1) {
      received = { text: '' };
      let completion: Completion;
      const llmEnded = spans.llm(round);
      try {
        const stream = streamCompletion(provider, messages, offered, perCall(signal), received);
        let next = await stream.next();
        for (; !next.done; next = await stream.next()) yield { type: 'text', delta: next.value };
        completion = next.value;
        llmEnded(completion);
      } catch (error) {
        llmEnded({ error });
        if (received.text) await append({ role: 'assistant', content: received.text });
        received = { text: '' };
        if (signal.aborted) {
          yield await end('cancelled', 'the chat was cancelled');
          return;
        }
        const failure = await toProviderError(error, provider.provider.baseUrl, limits.providerTimeoutMs);
        yield await end(failure.reason as ChatErrorReason, failure.message);
        return;
      }
      const spent = completion.usage;
      if (spent) {
        usage.promptTokens += spent.promptTokens;
        usage.completionTokens += spent.completionTokens;
        usage.totalTokens += spent.totalTokens;
      }
      const calls = completion.toolCalls;
      received = { text: '' };
      await append({
        role: 'assistant',
        content: completion.text,
        toolCalls: calls.length > 0 ? calls : null,
        promptTokens: spent?.promptTokens ?? null,
        completionTokens: spent?.completionTokens ?? null,
      });
      if (calls.length === 0) {
        ended = true;
        failure = null;
        yield { type: 'final', sessionId, text: completion.text, usage: { ...usage }, rounds: round };
        return;
      }
      messages.push({
        role: 'assistant',
        content: completion.text || null,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      });
      if (round > limits.maxToolRounds) {
        for (const call of calls)
          await append({
            role: 'tool',
            toolCallId: call.id,
            toolName: call.name,
            isError: true,
            content: 'Error: not called, the tool round limit was reached',
          });
        yield await end(
          'tool_rounds',
          `the bot still asked for tools after ${limits.maxToolRounds} rounds, so the turn stopped; ask again to continue`,
        );
        return;
      }
      for (const call of calls) {
        yield {
          type: 'tool_call',
          id: call.id,
          name: call.name,
          arguments: parseArguments(call.arguments) ?? call.arguments,
        };
        const span = spans.tool(call.name, call.id);
        const outcome = await callChatTool(tools, bot.slug, offeredNames, call, perCall(signal), span.context);
        span.end(outcome.isError);
        await append({
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: outcome.text,
          isError: outcome.isError,
          data: outcome.result,
        });
        messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.text });
        yield {
          type: 'tool_result',
          id: call.id,
          name: call.name,
          isError: outcome.isError,
          text: outcome.text,
          result: outcome.result,
        };
      }
      if (signal.aborted) {
        yield await end('cancelled', 'the chat was cancelled');
        return;
      }
    }
  } catch (error) {
    if (ended) throw error;
    log.error({ err: error, bot: bot.slug, sessionId }, 'chat turn failed');
    yield await end('internal', `the chat failed: ${toErrorInfo(error).message}`);
  } finally {
    spans.end(failure, usage);
    if (!ended) {
      // The consumer stopped reading: stop the provider and the tools, and say so in the history.
      controller.abort();
      if (received.text)
        await append({ role: 'assistant', content: received.text }).catch((error: unknown) =>
          log.warn({ err: error, sessionId }, 'could not record a cut answer'),
        );
      await append({
        role: 'error',
        content: 'the chat was interrupted before it finished',
        isError: true,
        data: { reason: 'interrupted' },
      }).catch((error: unknown) => log.warn({ err: error, sessionId }, 'could not record an interrupted chat'));
    }
  }
}
