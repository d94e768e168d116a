/**
 * The spans of a bot's chat turn (issue 21), after the OpenTelemetry gen_ai conventions: the
 * turn is `invoke_agent {bot}`, each LLM call a CLIENT span `chat {model}` with the provider's
 * host, the model and the tokens used, each tool the bot calls an `execute_tool {name}` span,
 * the parent of the gateway's CLIENT span to the upstream. No tracer (traces off): nothing.
 * @module
 */
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { Bot } from './bot-schemas.js';
import type { TokenUsage } from './ports.js';

/** The spans of one turn; every method does nothing when traces are off. */
export type ChatSpans = {
  /** The turn's context: the parent of its tool calls' spans; null when off. */
  readonly context: Context | null;
  /** An LLM call began; call the returned function with its usage (or its failure) when it ended. */
  llm(round: number): (outcome: { usage: TokenUsage | null; finishReason: string | null } | { error: unknown }) => void;
  /** A tool call began; the returned context is its span's, the function ends it. */
  tool(name: string, id: string): { context: Context | null; end(isError: boolean): void };
  /** The turn ended: `failure` names why when it did not end with an answer. */
  end(failure: string | null, usage: TokenUsage): void;
};

const NOOP: ChatSpans = {
  context: null,
  llm: () => () => undefined,
  tool: () => ({ context: null, end: () => undefined }),
  end: () => undefined,
};

/** The host of a provider's base URL (`server.address`), or the text as it is when it is no URL. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname;
  } catch {
    return baseUrl;
  }
}

/** Begin the spans of a turn of `bot` in chat session `sessionId`. */
export function startChatSpans(tracer: Tracer | null | undefined, bot: Bot, sessionId: string): ChatSpans {
  if (!tracer) return NOOP;
  const turn = tracer.startSpan(`invoke_agent ${bot.slug}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': bot.slug,
      'gen_ai.conversation.id': sessionId,
      'boternity.bot': bot.slug,
    },
  });
  const context = trace.setSpan(ROOT_CONTEXT, turn);
  const model = bot.provider?.model ?? 'unknown';
  const failed = (span: Span, message: string) => span.setStatus({ code: SpanStatusCode.ERROR, message });
  return {
    context,
    llm(round) {
      const span = tracer.startSpan(
        `chat ${model}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.model': model,
            'gen_ai.provider.name': 'openai',
            'server.address': hostOf(bot.provider?.baseUrl ?? ''),
            'boternity.chat.round': round,
          },
        },
        context,
      );
      return (outcome) => {
        if ('error' in outcome) {
          span.setAttribute('error.type', outcome.error instanceof Error ? outcome.error.constructor.name : '_OTHER');
          failed(span, outcome.error instanceof Error ? outcome.error.message : String(outcome.error));
        } else {
          if (outcome.usage) {
            span.setAttribute('gen_ai.usage.input_tokens', outcome.usage.promptTokens);
            span.setAttribute('gen_ai.usage.output_tokens', outcome.usage.completionTokens);
          }
          if (outcome.finishReason) span.setAttribute('gen_ai.response.finish_reasons', [outcome.finishReason]);
        }
        span.end();
      };
    },
    tool(name, id) {
      const span = tracer.startSpan(
        `execute_tool ${name}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, 'gen_ai.tool.call.id': id },
        },
        context,
      );
      return {
        context: trace.setSpan(context, span),
        end(isError) {
          if (isError) {
            span.setAttribute('error.type', 'tool_error');
            failed(span, 'tool_error');
          }
          span.end();
        },
      };
    },
    end(failure, usage) {
      turn.setAttributes({
        'gen_ai.usage.input_tokens': usage.promptTokens,
        'gen_ai.usage.output_tokens': usage.completionTokens,
      });
      if (failure) {
        turn.setAttribute('error.type', failure);
        failed(turn, failure);
      }
      turn.end();
    },
  };
}
