/**
 * A provider input as the `bots` table stores it.
 * @module
 */
import type { BotValues } from '../storage/bot-repo.js';
import type { CreateBotInput } from './bot-schemas.js';

type ProviderColumns = Pick<
  BotValues,
  'llmBaseUrl' | 'llmModel' | 'llmCredentialKey' | 'llmTemperature' | 'llmMaxTokens'
>;

/** The `llm*` columns for `provider`; all null when it is null (no provider). */
export function providerColumns(provider: CreateBotInput['provider'] | null): ProviderColumns {
  return {
    llmBaseUrl: provider?.baseUrl ?? null,
    llmModel: provider?.model ?? null,
    llmCredentialKey: provider?.credentialKey ?? null,
    llmTemperature: provider?.temperature ?? null,
    llmMaxTokens: provider?.maxTokens ?? null,
  };
}
