/**
 * Sampling answered by a bot (SPEC G6, X6): an upstream's `sampling/createMessage`, caused
 * by a bot's session, goes to that bot's provider instead of the agent. The bot's
 * `samplingBudgetTokens` is charged with the provider's real token counts (estimated at four
 * characters a token only when it reports none, as `gateway/sampling-budget.ts` does); like
 * the servers' budgets, a request reserves its prompt and `maxTokens` first, so parallel
 * requests cannot overrun the budget together. The gateway charges the server's budget too.
 * @module
 */
import { BotBudgetExceededError } from '../errors.js';
import { botSamplingUsed, recordBotSamplingUsage } from '../storage/bot-sampling-usage-repo.js';
import type { BotDeps } from './bot-deps.js';
import { getBot } from './get-bot.js';
import { openProvider } from './open-provider.js';
import type { AnswerSampling, SamplingRequest } from './ports.js';
import { toProviderError } from './provider-error.js';
import { toProviderMessages, toProviderToolOptions, toSamplingResult } from './sampling-messages.js';

const estimate = (value: unknown): number => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));

/** What a request may cost at most: its prompt, estimated, and the tokens it allows the answer. */
function reservation({ params }: SamplingRequest): number {
  return (
    estimate(params.messages) +
    (params.systemPrompt ? estimate(params.systemPrompt) : 0) +
    Math.max(0, params.maxTokens)
  );
}

/** Create the answerer of one service (it keeps the reservations in flight, per bot). */
export function createSamplingAnswerer(deps: Pick<BotDeps, 'db' | 'credentials' | 'limits'>): AnswerSampling {
  const inFlight = new Map<string, number>();
  return async (request) => {
    const bot = await getBot(deps, request.slug);
    const { client, provider } = await openProvider(bot, deps);
    const held = reservation(request);
    const budget = bot.samplingBudgetTokens;
    const spent = await botSamplingUsed(deps.db, bot.id);
    const pending = inFlight.get(bot.id) ?? 0;
    if (budget !== null && spent + pending + held > budget)
      throw new BotBudgetExceededError(
        `sampling budget of bot "${bot.slug}" is spent (${spent} of ${budget} tokens used, ${pending} reserved; this request may need ${held}); raise its samplingBudgetTokens or reset its usage`,
      );
    inFlight.set(bot.id, pending + held);
    try {
      const { params } = request;
      const maxTokens = provider.maxTokens === null ? params.maxTokens : Math.min(params.maxTokens, provider.maxTokens);
      const temperature = params.temperature ?? provider.temperature;
      const completion = await client.chat.completions
        .create(
          {
            model: provider.model,
            messages: toProviderMessages(params),
            max_tokens: maxTokens,
            ...(temperature !== null ? { temperature } : {}),
            ...(params.stopSequences?.length ? { stop: params.stopSequences } : {}),
            ...toProviderToolOptions(params),
          },
          request.signal ? { signal: request.signal } : {},
        )
        .catch(async (error: unknown) => {
          throw await toProviderError(error, provider.baseUrl, deps.limits.providerTimeoutMs);
        });
      const result = toSamplingResult(completion, params, provider.model);
      const reported = completion.usage;
      const usage = reported
        ? { promptTokens: reported.prompt_tokens, completionTokens: reported.completion_tokens, estimated: false }
        : {
            promptTokens: held - Math.max(0, params.maxTokens),
            completionTokens: estimate(result.content),
            estimated: true,
          };
      await recordBotSamplingUsage(deps.db, { botId: bot.id, serverName: request.server, ...usage });
      return { result, usage: { ...usage, totalTokens: usage.promptTokens + usage.completionTokens } };
    } finally {
      inFlight.set(bot.id, Math.max(0, (inFlight.get(bot.id) ?? 0) - held));
    }
  };
}
