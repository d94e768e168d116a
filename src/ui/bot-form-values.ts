/**
 * The bot form's text fields and the API bodies they stand for: a new bot's `POST` body (an
 * empty field left out) and an edit's `PATCH` (only what changed; an emptied optional field
 * is `null`, which clears it, as the API documents). The values are sent as typed: checking
 * them is the API's job, and its one line per field is what the form shows.
 * @module
 */
import type { ApiError } from './api.js';
import type { Bot, BotPatch, NewBot } from './api-types.js';

/** The form's fields, each as its input holds it. */
export type BotFormValues = {
  slug: string;
  name: string;
  description: string;
  category: string;
  systemPrompt: string;
  baseUrl: string;
  model: string;
  credentialKey: string;
  samplingBudgetTokens: string;
};

/** A bot's profile as it is stored. */
export type BotProfile = NonNullable<Bot['profile']>;

type Provider = NonNullable<NewBot['provider']>;

/** The empty form; `slug` given for a bot that has a view and no profile yet. */
export const emptyBotValues = (slug = ''): BotFormValues => ({
  slug,
  name: '',
  description: '',
  category: '',
  systemPrompt: '',
  baseUrl: '',
  model: '',
  credentialKey: '',
  samplingBudgetTokens: '',
});

/** The form filled with a profile, to edit it. */
export const botValuesOf = (profile: BotProfile): BotFormValues => ({
  slug: profile.slug,
  name: profile.name,
  description: profile.description,
  category: profile.category ?? '',
  systemPrompt: profile.systemPrompt ?? '',
  baseUrl: profile.provider?.baseUrl ?? '',
  model: profile.provider?.model ?? '',
  credentialKey: profile.provider?.credentialKey ?? '',
  samplingBudgetTokens: profile.samplingBudgetTokens === null ? '' : String(profile.samplingBudgetTokens),
});

/** A whole number as a number; anything else as typed, for the API to name. */
const budgetOf = (text: string): number | string => (/^\s*\d+\s*$/.test(text) ? Number(text) : text);

/**
 * The provider the fields describe, null when all three are empty. Temperature and max
 * tokens have no field: an edit keeps those of `kept` (the provider as it was).
 */
function providerOf(v: BotFormValues, kept: BotProfile['provider'] = null): Provider | null {
  if (!v.baseUrl.trim() && !v.model.trim() && !v.credentialKey.trim()) return null;
  return {
    baseUrl: v.baseUrl.trim(),
    model: v.model.trim(),
    ...(v.credentialKey.trim() ? { credentialKey: v.credentialKey.trim() } : {}),
    ...(kept?.temperature != null ? { temperature: kept.temperature } : {}),
    ...(kept?.maxTokens != null ? { maxTokens: kept.maxTokens } : {}),
  };
}

/** The body of `POST /api/bots`: the slug and name, and every other field that is filled. */
export function newBotBody(v: BotFormValues): NewBot {
  const provider = providerOf(v);
  // The budget as typed (a word included): the API's line names what is wrong with it.
  const budget = v.samplingBudgetTokens.trim() ? { samplingBudgetTokens: budgetOf(v.samplingBudgetTokens) } : {};
  return {
    slug: v.slug.trim(),
    name: v.name,
    ...(v.description ? { description: v.description } : {}),
    ...(v.category.trim() ? { category: v.category.trim() } : {}),
    ...(v.systemPrompt ? { systemPrompt: v.systemPrompt } : {}),
    ...(provider ? { provider } : {}),
    ...(budget as { samplingBudgetTokens?: number }),
  };
}

/** The `PATCH` for `profile` edited into `v`: the fields that changed, an emptied optional one as null. */
export function botPatch(profile: BotProfile, v: BotFormValues): BotPatch {
  const patch: Record<string, unknown> = {};
  const was = botValuesOf(profile);
  if (v.name !== was.name) patch.name = v.name;
  if (v.description !== was.description) patch.description = v.description;
  if (v.category.trim() !== was.category) patch.category = v.category.trim() || null;
  if (v.systemPrompt !== was.systemPrompt) patch.systemPrompt = v.systemPrompt || null;
  const provider = providerOf(v, profile.provider);
  if (JSON.stringify(provider) !== JSON.stringify(providerOf(was, profile.provider))) patch.provider = provider;
  if (v.samplingBudgetTokens.trim() !== was.samplingBudgetTokens)
    patch.samplingBudgetTokens = v.samplingBudgetTokens.trim() ? budgetOf(v.samplingBudgetTokens) : null;
  return patch as BotPatch;
}

/** The form field an API field is shown next to (`provider.baseUrl` → `baseUrl`). */
const FIELD_OF: Readonly<Record<string, keyof BotFormValues>> = {
  'provider.baseUrl': 'baseUrl',
  'provider.model': 'model',
  'provider.credentialKey': 'credentialKey',
};

/**
 * A refusal split by field: each field's first issue (its one line), a taken slug (`409`)
 * by the slug, and anything about no field of the form as `other`.
 */
export function botFormErrors(error: ApiError | Error): {
  fields: Partial<Record<keyof BotFormValues, string>>;
  other: string | null;
} {
  const fields: Partial<Record<keyof BotFormValues, string>> = {};
  const apiError = 'issues' in error ? error : null;
  if (apiError?.status === 409 && apiError.code === 'conflict') return { fields: { slug: error.message }, other: null };
  const known = new Set<string>(Object.keys(emptyBotValues()));
  const rest: string[] = [];
  for (const issue of apiError?.issues ?? []) {
    const field = FIELD_OF[issue.field] ?? issue.field;
    if (known.has(field)) fields[field as keyof BotFormValues] ??= issue.message;
    else rest.push(issue.field ? `${issue.field}: ${issue.message}` : issue.message);
  }
  const other = Object.keys(fields).length === 0 ? error.message : rest.length > 0 ? rest.join('; ') : null;
  return { fields, other };
}
