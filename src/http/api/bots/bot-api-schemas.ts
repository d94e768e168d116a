/**
 * Response and parameter schemas of `/api/bots` (SPEC A1, B1–B4, section 7). Request bodies
 * are the bots' own zod schemas (`src/bots/*-schemas.ts`), so the API, the MCP bot tools and
 * the CLI validate alike; these describe what the API answers, for the OpenAPI document.
 * @module
 */
import { z } from '@hono/zod-openapi';

/** A bot's slug in a path. */
export const SlugParams = z.object({
  slug: z.string().openapi({ param: { name: 'slug', in: 'path' }, example: 'scout' }),
});

/** A bot's slug and a skill or workflow name in a path. */
export const SlugItemParams = SlugParams.extend({
  item: z.string().openapi({ param: { name: 'item', in: 'path' }, example: 'summarize' }),
});

/** A bot's slug and a server name in a path. */
export const SlugServerParams = SlugParams.extend({
  server: z.string().openapi({ param: { name: 'server', in: 'path' }, example: 'fs' }),
});

const Provider = z
  .object({
    baseUrl: z.string(),
    model: z.string(),
    credentialKey: z.string().nullable(),
    temperature: z.number().nullable(),
    maxTokens: z.number().nullable(),
  })
  .openapi('BotProvider');

/** A bot of the registry. */
export const BotProfileSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    category: z.string().nullable(),
    systemPrompt: z.string().nullable(),
    provider: Provider.nullable(),
    samplingBudgetTokens: z.number().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('BotProfile');

const Permission = z.object({ allowed: z.array(z.string()).optional(), denied: z.array(z.string()).optional() });

/** A bot's view as the config file holds it (`bots.{slug}`). */
export const BotViewSchema = z
  .object({
    additionalServers: z.array(z.string()),
    removedServers: z.array(z.string()),
    toolPermissions: z.record(z.string(), Permission),
  })
  .openapi('BotView');

/** `PUT /api/bots/{slug}/overrides`: the whole view (absent lists are empty). */
export const BotViewInputSchema = z
  .object({
    additionalServers: z.array(z.string().min(1)).default([]),
    removedServers: z.array(z.string().min(1)).default([]),
    toolPermissions: z
      .record(
        z.string(),
        z
          .object({ allowed: z.array(z.string().min(1)).optional(), denied: z.array(z.string().min(1)).optional() })
          .strict(),
      )
      .default({}),
  })
  .strict()
  .openapi('BotViewInput');

/** `PATCH /api/bots/{slug}/permissions/{server}`: tools to allow and to deny (each taken out of the other list). */
export const PermissionEditSchema = z
  .object({ allow: z.array(z.string().min(1)).default([]), deny: z.array(z.string().min(1)).default([]) })
  .strict()
  .openapi('PermissionEdit');

/** A bot as the API shows it: both places it lives, joined, and what it sees. */
export const BotDetailSchema = z
  .object({
    slug: z.string(),
    source: z.enum(['both', 'database', 'config']).openapi({
      description: '`database`: no view in the config file (default servers); `config`: no profile in the registry',
    }),
    profile: BotProfileSchema.nullable(),
    view: BotViewSchema.nullable(),
    servers: z.array(z.string()).openapi({ description: 'The servers its view aggregates, in config order' }),
    samplingUsedTokens: z.number().openapi({ description: "Tokens its provider spent on servers' sampling" }),
    warning: z.string().nullable().openapi({ description: 'Set when the bot lives in one place only' }),
  })
  .openapi('Bot');

export const MemorySchema = z
  .object({ id: z.string(), category: z.string(), content: z.string(), createdAt: z.string() })
  .openapi('BotMemory');

const SkillArgument = z.object({
  name: z.string(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  values: z.array(z.string()).optional(),
});

export const SkillSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    template: z.string(),
    arguments: z.array(SkillArgument),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('BotSkill');

const Step = z.object({
  id: z.string(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  timeoutMs: z.number().optional(),
});

export const WorkflowSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    steps: z.array(Step),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('BotWorkflow');

export const WorkflowRunSchema = z
  .object({
    bot: z.string(),
    workflow: z.string(),
    runId: z.string().openapi({ description: 'The id its `workflow_*` events carry' }),
    status: z.enum(['succeeded', 'failed']),
    failedStep: z.string().nullable(),
    error: z.string().nullable(),
    steps: z.array(
      z.object({
        id: z.string(),
        tool: z.string(),
        status: z.enum(['succeeded', 'failed', 'skipped']),
        durationMs: z.number().nullable(),
        result: z.unknown(),
        error: z.string().nullable(),
      }),
    ),
    output: z.unknown(),
  })
  .openapi('WorkflowRun');

const Usage = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() });

export const ChatHistorySchema = z
  .object({
    sessionId: z.string(),
    title: z.string(),
    usage: Usage,
    createdAt: z.string(),
    updatedAt: z.string(),
    messages: z.array(
      z.object({
        id: z.number(),
        role: z.enum(['user', 'assistant', 'tool', 'error']),
        content: z.string(),
        toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).nullable(),
        toolCallId: z.string().nullable(),
        toolName: z.string().nullable(),
        isError: z.boolean(),
        data: z.unknown(),
        promptTokens: z.number().nullable(),
        completionTokens: z.number().nullable(),
        createdAt: z.string(),
      }),
    ),
  })
  .openapi('ChatHistory');

export const ChatSessionSchema = z
  .object({ sessionId: z.string(), title: z.string(), createdAt: z.string(), updatedAt: z.string() })
  .openapi('ChatSession');

export const BotSamplingSchema = z
  .object({ usedTokens: z.number(), budgetTokens: z.number().nullable() })
  .openapi('BotSampling');
