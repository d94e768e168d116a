/**
 * A bot's provider as an `openai` client (SPEC B4): any OpenAI-compatible endpoint, its key
 * read from the credentials port (the keystore) when the bot names one. `openai` is loaded
 * at the first provider call, not with the service (issue 8: time to first call).
 * @module
 */
import type OpenAI from 'openai';
import { ProviderError } from '../errors.js';
import type { BotLimits } from './bot-limits.js';
import type { Bot, BotProvider } from './bot-schemas.js';
import type { Credentials } from './ports.js';

/** A ready client and the provider settings it was made from. */
export type OpenProvider = { client: OpenAI; provider: BotProvider };

/** A client for `bot`'s provider; throws ProviderError when it has none or its credential is missing. */
export async function openProvider(
  bot: Bot,
  { credentials, limits }: { credentials: Credentials; limits: BotLimits },
): Promise<OpenProvider> {
  const provider = bot.provider;
  if (!provider)
    throw new ProviderError(
      'no_provider',
      `bot "${bot.slug}" has no LLM provider; give it one: {"provider": {"baseUrl": "…/v1", "model": "…"}}`,
    );
  let apiKey = 'none';
  if (provider.credentialKey) {
    const secret = await credentials.get(provider.credentialKey);
    if (secret === null)
      throw new ProviderError(
        'no_credential',
        `credential "${provider.credentialKey}" of bot "${bot.slug}" is not in the keystore; store it with bnity mcp credential set ${provider.credentialKey}`,
      );
    apiKey = secret;
  }
  const { default: OpenAIClient } = await import('openai');
  const client = new OpenAIClient({
    baseURL: provider.baseUrl,
    apiKey,
    timeout: limits.providerTimeoutMs,
    maxRetries: limits.providerMaxRetries,
    // Not from OPENAI_ORG_ID / OPENAI_PROJECT_ID: a bot's provider is what its profile says.
    organization: null,
    project: null,
  });
  return { client, provider };
}
