/**
 * The bot form's fields as API bodies (issue 19, bots): a new bot leaves empty fields out; an
 * edit sends only what changed, an emptied optional field as null (which the API reads as
 * "clear"), and keeps the provider's temperature and max tokens, which have no field; the
 * API's refusals land on the field they name. Each body is also checked against the API's
 * own schemas, so a body the form builds is one the API accepts.
 */
import { describe, expect, it } from 'vitest';
import { CreateBotInputSchema, UpdateBotInputSchema } from '../../src/bots/bot-schemas.js';
import { ApiError } from '../../src/ui/api.js';
import {
  type BotProfile,
  botFormErrors,
  botPatch,
  botValuesOf,
  emptyBotValues,
  newBotBody,
} from '../../src/ui/bot-form-values.js';

const PROFILE: BotProfile = {
  id: 'b1',
  slug: 'scout',
  name: 'Scout',
  description: 'Looks around.',
  category: 'ops',
  systemPrompt: 'Be terse.',
  provider: {
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'llama3',
    credentialKey: 'ollama',
    temperature: 0.2,
    maxTokens: 512,
  },
  samplingBudgetTokens: 100,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('newBotBody', () => {
  it('is the slug and name alone when nothing else is filled', () => {
    const body = newBotBody({ ...emptyBotValues(), slug: ' scout ', name: 'Scout' });
    expect(body).toEqual({ slug: 'scout', name: 'Scout' });
    expect(CreateBotInputSchema.safeParse(body).success).toBe(true);
  });

  it('carries every filled field, the budget as a number', () => {
    const body = newBotBody({ ...botValuesOf(PROFILE), samplingBudgetTokens: ' 5000 ' });
    expect(body).toEqual({
      slug: 'scout',
      name: 'Scout',
      description: 'Looks around.',
      category: 'ops',
      systemPrompt: 'Be terse.',
      provider: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3', credentialKey: 'ollama' },
      samplingBudgetTokens: 5000,
    });
    expect(CreateBotInputSchema.safeParse(body).success).toBe(true);
  });

  it('sends a budget that is not a whole number as typed, for the API to name', () => {
    const body = newBotBody({ ...emptyBotValues('scout'), name: 'S', samplingBudgetTokens: 'lots' });
    expect(body.samplingBudgetTokens).toBe('lots');
    const refused = CreateBotInputSchema.safeParse(body);
    expect(refused.error?.issues.map((i) => i.path.join('.'))).toEqual(['samplingBudgetTokens']);
  });

  it('a credential key alone still makes a provider, which the API refuses naming the base URL', () => {
    const body = newBotBody({ ...emptyBotValues('scout'), name: 'S', credentialKey: 'k' });
    expect(body.provider).toEqual({ baseUrl: '', model: '', credentialKey: 'k' });
    const refused = CreateBotInputSchema.safeParse(body);
    expect(refused.error?.issues.map((i) => i.path.join('.'))).toContain('provider.baseUrl');
  });
});

describe('botPatch', () => {
  it('is empty when nothing changed', () => {
    expect(botPatch(PROFILE, botValuesOf(PROFILE))).toEqual({});
  });

  it('sends only what changed; emptied optional fields are null, an emptied description ""', () => {
    const patch = botPatch(PROFILE, {
      ...botValuesOf(PROFILE),
      name: 'Scout II',
      description: '',
      category: '  ',
      systemPrompt: '',
      samplingBudgetTokens: '',
    });
    expect(patch).toEqual({
      name: 'Scout II',
      description: '',
      category: null,
      systemPrompt: null,
      samplingBudgetTokens: null,
    });
    expect(UpdateBotInputSchema.safeParse(patch).success).toBe(true);
  });

  it('a changed model sends the whole provider, keeping its temperature and max tokens', () => {
    expect(botPatch(PROFILE, { ...botValuesOf(PROFILE), model: 'qwen' })).toEqual({
      provider: {
        baseUrl: 'http://127.0.0.1:11434/v1',
        model: 'qwen',
        credentialKey: 'ollama',
        temperature: 0.2,
        maxTokens: 512,
      },
    });
  });

  it('the provider fields all emptied clear it (null)', () => {
    const patch = botPatch(PROFILE, { ...botValuesOf(PROFILE), baseUrl: '', model: '', credentialKey: '' });
    expect(patch).toEqual({ provider: null });
    expect(UpdateBotInputSchema.safeParse(patch).success).toBe(true);
  });

  it('a profile without a provider or budget is unchanged by the empty fields that show it', () => {
    const bare = { ...PROFILE, category: null, systemPrompt: null, provider: null, samplingBudgetTokens: null };
    expect(botPatch(bare, botValuesOf(bare))).toEqual({});
  });
});

describe('botFormErrors', () => {
  it("puts each issue's line on its field (provider.baseUrl on Base URL), the first per field", () => {
    const error = new ApiError(400, 'bad_request', 'invalid request body: slug: bad', [
      { field: 'slug', message: 'bad slug' },
      { field: 'slug', message: 'second' },
      { field: 'provider.baseUrl', message: 'must be an http:// or https:// URL' },
    ]);
    expect(botFormErrors(error)).toEqual({
      fields: { slug: 'bad slug', baseUrl: 'must be an http:// or https:// URL' },
      other: null,
    });
  });

  it('a taken slug (409 conflict) is said by the slug', () => {
    const error = new ApiError(409, 'conflict', 'bot "scout" already exists; pick another slug or update that bot');
    expect(botFormErrors(error)).toEqual({ fields: { slug: error.message }, other: null });
  });

  it('anything about no field of the form is said below it: the whole message, or the other issues', () => {
    expect(botFormErrors(new ApiError(500, 'internal', 'internal error'))).toEqual({
      fields: {},
      other: 'internal error',
    });
    expect(botFormErrors(new TypeError('Failed to fetch'))).toEqual({ fields: {}, other: 'Failed to fetch' });
    const mixed = new ApiError(400, 'bad_request', 'invalid request body', [
      { field: 'name', message: 'too short' },
      { field: 'provider.temperature', message: 'too hot' },
    ]);
    expect(botFormErrors(mixed)).toEqual({ fields: { name: 'too short' }, other: 'provider.temperature: too hot' });
  });
});
