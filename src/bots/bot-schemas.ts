/**
 * The shapes of the bot registry (SPEC B1, section 7): input schemas that the API reuses
 * for validation and OpenAPI, and the `Bot` every verb returns.
 * @module
 */
import { z } from 'zod';

/** The config file's slug alphabet: 1 to 63 of `a-z 0-9 -`, not starting with `-`. */
export const BOT_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** A bot slug. */
export const BotSlugSchema = z
  .string()
  .regex(BOT_SLUG, 'bot slugs are 1 to 63 lowercase letters, digits and -, starting with a letter or digit');

/** A keystore name (`[A-Za-z0-9_.-]{1,64}`, as `bnity mcp credential` takes). */
const CredentialKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'credential keys are 1 to 64 of A-Z a-z 0-9 _ . -');

/** An OpenAI-compatible provider: where, which model, and the keystore entry holding its key. */
export const ProviderInputSchema = z
  .object({
    baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
    model: z.string().trim().min(1).max(200),
    credentialKey: CredentialKeySchema.optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
  })
  .strict();

const Name = z.string().trim().min(1).max(100);
const Description = z.string().max(2_000);
const Category = z.string().trim().min(1).max(64);
const SystemPrompt = z.string().max(32_000);
const Budget = z.number().int().nonnegative();

/** `POST /api/bots` and `create_bot`. */
export const CreateBotInputSchema = z
  .object({
    slug: BotSlugSchema,
    name: Name,
    description: Description.optional(),
    category: Category.optional(),
    systemPrompt: SystemPrompt.optional(),
    provider: ProviderInputSchema.optional(),
    samplingBudgetTokens: Budget.optional(),
  })
  .strict();
export type CreateBotInput = z.infer<typeof CreateBotInputSchema>;

/** `PATCH /api/bots/{slug}`: absent fields stay; `null` clears an optional one. */
export const UpdateBotInputSchema = z
  .object({
    name: Name.optional(),
    description: Description.optional(),
    category: Category.nullable().optional(),
    systemPrompt: SystemPrompt.nullable().optional(),
    provider: ProviderInputSchema.nullable().optional(),
    samplingBudgetTokens: Budget.nullable().optional(),
  })
  .strict();
export type UpdateBotInput = z.infer<typeof UpdateBotInputSchema>;

/** `GET /api/bots` and `list_bots`: optional category filter and paging. */
export const ListBotsInputSchema = z
  .object({
    category: Category.optional(),
    limit: z.number().int().min(1).max(1_000).optional(),
    offset: z.number().int().nonnegative().optional(),
  })
  .strict();
export type ListBotsInput = z.infer<typeof ListBotsInputSchema>;

/** A bot's provider as stored (no secret: `credentialKey` names a keystore entry). */
export type BotProvider = {
  baseUrl: string;
  model: string;
  credentialKey: string | null;
  temperature: number | null;
  maxTokens: number | null;
};

/** A bot of the registry. */
export type Bot = {
  id: string;
  slug: string;
  name: string;
  description: string;
  category: string | null;
  systemPrompt: string | null;
  provider: BotProvider | null;
  samplingBudgetTokens: number | null;
  createdAt: string;
  updatedAt: string;
};
