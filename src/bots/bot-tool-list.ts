/**
 * The definitions of the bot tools (SPEC G7, G8): names, descriptions, JSON input schemas
 * made from the same zod schemas the verbs validate with, and annotations that say what
 * each tool really does.
 * @module
 */
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { sanitizeText } from '../guard/sanitize-text.js';
import type { BotScope } from './bot-access.js';
import { BotSlugSchema, CreateBotInputSchema, ListBotsInputSchema } from './bot-schemas.js';
import { botToolName, type PerBotVerb, type SharedTool } from './bot-tool-names.js';
import { ChatInputSchema } from './chat-schemas.js';
import { AddMemoryInputSchema, ListMemoriesInputSchema } from './memory-schemas.js';
import { RunWorkflowInputSchema } from './workflow-schemas.js';

/** `{ slug }` of `get_bot` and `delete_bot`. */
export const SlugArgSchema = z.object({ slug: BotSlugSchema }).strict();
/** `trigger_workflow` on `/mcp`: which bot's workflow. */
export const TriggerWorkflowInputSchema = RunWorkflowInputSchema.extend({ bot: BotSlugSchema });
/** Tools of one bot that take no arguments. */
export const NoArgsSchema = z.object({}).strict();

type InputSchema = Tool['inputSchema'];

const toJson = (schema: z.ZodType): InputSchema => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return json as InputSchema;
};

/** The JSON input schemas, computed once per service (shared by every listing). */
export function botToolSchemas() {
  return {
    list_bots: toJson(ListBotsInputSchema),
    slug: toJson(SlugArgSchema),
    create_bot: toJson(CreateBotInputSchema),
    trigger_workflow: toJson(TriggerWorkflowInputSchema),
    trigger_own_workflow: toJson(RunWorkflowInputSchema),
    none: toJson(NoArgsSchema),
    chat: toJson(ChatInputSchema),
    get_memories: toJson(ListMemoriesInputSchema),
    add_memory: toJson(AddMemoryInputSchema),
  };
}
export type BotToolSchemas = ReturnType<typeof botToolSchemas>;

const hints = (readOnly: boolean, destructive: boolean, idempotent: boolean, openWorld: boolean) => ({
  readOnlyHint: readOnly,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: openWorld,
});

/** What each tool does to the world: reads, adds, deletes, or reaches beyond boternity (an LLM, the bot's tools). */
export const ANNOTATIONS: Readonly<Record<SharedTool | PerBotVerb, ToolAnnotations>> = {
  list_bots: { title: 'List bots', ...hints(true, false, true, false) },
  get_bot: { title: 'Show a bot', ...hints(true, false, true, false) },
  create_bot: { title: 'Create a bot', ...hints(false, false, false, false) },
  delete_bot: { title: 'Delete a bot', ...hints(false, true, true, false) },
  // A workflow and a chat call the bot's own tools, which may change anything they reach.
  trigger_workflow: { title: 'Run a workflow', ...hints(false, true, false, true) },
  chat: { title: 'Chat with a bot', ...hints(false, true, false, true) },
  get_memories: { title: 'Read memories', ...hints(true, false, true, false) },
  add_memory: { title: 'Add a memory', ...hints(false, false, false, false) },
  list_skills: { title: 'List skills', ...hints(true, false, true, false) },
};

/** A bot's name and description as they may appear in a description other agents read (X4). */
const label = ({ name, description }: { name: string; description: string }): string => {
  const text = description ? `"${name}" (${description})` : `"${name}"`;
  return sanitizeText(text, { kind: 'description', maxLength: 300 }).text;
};

/** The tools of the bots in `scope`. */
export function listBotToolDefinitions(
  scope: BotScope,
  bots: readonly { slug: string; name: string; description: string }[],
  schemas: BotToolSchemas,
): Tool[] {
  const tool = (name: string, kind: SharedTool | PerBotVerb, description: string, inputSchema: InputSchema): Tool => ({
    name,
    description,
    inputSchema,
    annotations: ANNOTATIONS[kind],
  });
  const shared: Tool[] =
    scope.slug === null
      ? [
          tool(
            'list_bots',
            'list_bots',
            'List the bots: slug, name, description, category and provider. Optional category, limit and offset.',
            schemas.list_bots,
          ),
          tool(
            'get_bot',
            'get_bot',
            'Show one bot by slug: its profile and provider settings (never a secret).',
            schemas.slug,
          ),
          tool(
            'trigger_workflow',
            'trigger_workflow',
            "Run a named workflow of a bot with an optional input: its steps call the bot's tools in order; the result names the step that failed, if any.",
            schemas.trigger_workflow,
          ),
        ]
      : [
          tool(
            'get_bot',
            'get_bot',
            'Show this bot: its profile and provider settings (never a secret).',
            schemas.none,
          ),
          tool(
            'trigger_workflow',
            'trigger_workflow',
            "Run a named workflow of this bot with an optional input: its steps call the bot's tools in order; the result names the step that failed, if any.",
            schemas.trigger_own_workflow,
          ),
        ];
  if (scope.manage)
    shared.push(
      tool(
        'create_bot',
        'create_bot',
        'Create a bot: slug, name, and optionally description, category, systemPrompt, provider {baseUrl, model, credentialKey} and samplingBudgetTokens. Its MCP servers come from the config file (bots.{slug}).',
        schemas.create_bot,
      ),
      tool(
        'delete_bot',
        'delete_bot',
        'Delete a bot by slug, with its memories, skills, workflows and chat history.',
        schemas.slug,
      ),
    );
  const perBot = bots.flatMap((bot) => {
    const who = label(bot);
    return [
      tool(
        botToolName('chat', bot.slug),
        'chat',
        `Chat with bot ${who}: it answers with its own LLM and may use its tools. Pass sessionId to continue a conversation; the result gives it.`,
        schemas.chat,
      ),
      tool(
        botToolName('get_memories', bot.slug),
        'get_memories',
        `What bot ${who} remembers, newest first; optional category and limit.`,
        schemas.get_memories,
      ),
      tool(
        botToolName('add_memory', bot.slug),
        'add_memory',
        `Make bot ${who} remember a fact, with an optional category.`,
        schemas.add_memory,
      ),
      tool(
        botToolName('list_skills', bot.slug),
        'list_skills',
        `The skills (prompt templates with arguments) of bot ${who}.`,
        schemas.none,
      ),
    ];
  });
  return [...shared, ...perBot];
}
