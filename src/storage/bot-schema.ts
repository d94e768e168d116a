/**
 * The bots' tables (SPEC B1, B3, B4, X6): the registry, memories, skills, workflows, chat
 * history and sampling usage. Everything a bot owns is deleted with it (cascade). Same
 * conventions as `schema.ts`, which re-exports this file.
 * @module
 */
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, oneOf, uuidPk } from './schema-columns.js';

/** The bot registry (B1). The `llm*` columns name an OpenAI-compatible provider. */
export const botsTable = sqliteTable('bots', {
  id: uuidPk(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  category: text('category'),
  systemPrompt: text('system_prompt'),
  llmBaseUrl: text('llm_base_url'),
  llmModel: text('llm_model'),
  /** A keystore key (C6), never the secret itself. */
  llmCredentialKey: text('llm_credential_key'),
  llmTemperature: real('llm_temperature'),
  llmMaxTokens: integer('llm_max_tokens'),
  samplingBudgetTokens: integer('sampling_budget_tokens'),
  createdAt: createdAt('created_at'),
  updatedAt: createdAt('updated_at'),
});

const botRef = () =>
  text('bot_id')
    .notNull()
    .references(() => botsTable.id, { onDelete: 'cascade' });

/** Facts a bot remembers, by category (B3); deleted with their bot. */
export const botMemoriesTable = sqliteTable(
  'bot_memories',
  {
    id: uuidPk(),
    botId: botRef(),
    category: text('category').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt('created_at'),
  },
  (t) => [index('idx_bot_memories_bot').on(t.botId)],
);

/** A declared argument of a skill; `values`, when given, are offered as completions. */
export type StoredSkillArgument = {
  name: string;
  description?: string | undefined;
  required?: boolean | undefined;
  values?: string[] | undefined;
};

/** Prompt templates with declared arguments (B3), served as MCP prompts. */
export const botSkillsTable = sqliteTable(
  'bot_skills',
  {
    id: uuidPk(),
    botId: botRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    template: text('template').notNull(),
    arguments: text('arguments', { mode: 'json' }).$type<StoredSkillArgument[]>().notNull(),
    createdAt: createdAt('created_at'),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [uniqueIndex('idx_bot_skills_bot_name').on(t.botId, t.name)],
);

/** One step of a workflow: a tool of the bot's view and its (templated) arguments. */
export type StoredWorkflowStep = {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  timeoutMs?: number | undefined;
};

/** Named sequences of tool calls (B3). */
export const botWorkflowsTable = sqliteTable(
  'bot_workflows',
  {
    id: uuidPk(),
    botId: botRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    steps: text('steps', { mode: 'json' }).$type<StoredWorkflowStep[]>().notNull(),
    createdAt: createdAt('created_at'),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [uniqueIndex('idx_bot_workflows_bot_name').on(t.botId, t.name)],
);

/**
 * A conversation with a bot (B4). Its token totals and last activity are read from its
 * messages, so a turn writes only messages (each write is a commit, and on a file a sync).
 */
export const botChatSessionsTable = sqliteTable(
  'bot_chat_sessions',
  {
    id: uuidPk(),
    botId: botRef(),
    title: text('title').notNull().default(''),
    createdAt: createdAt('created_at'),
  },
  (t) => [index('idx_bot_chat_sessions_bot').on(t.botId)],
);

/** Roles of a stored chat message; `error` records what ended a turn and is never sent to a provider. */
export const chatRoles = ['user', 'assistant', 'tool', 'error'] as const;

/** A tool call the provider asked for, as stored on its assistant message. */
export type StoredToolCall = { id: string; name: string; arguments: string };

/**
 * The history of a chat session, in `id` order (an autoincrement key: inserts are ordered
 * even within one millisecond).
 */
export const botChatMessagesTable = sqliteTable(
  'bot_chat_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: text('session_id')
      .notNull()
      .references(() => botChatSessionsTable.id, { onDelete: 'cascade' }),
    role: text('role', { enum: chatRoles }).notNull(),
    /** What the provider sees (for `tool`: the text of the result as the tool port returned it). */
    content: text('content').notNull().default(''),
    toolCalls: text('tool_calls', { mode: 'json' }).$type<StoredToolCall[]>(),
    toolCallId: text('tool_call_id'),
    toolName: text('tool_name'),
    isError: integer('is_error', { mode: 'boolean' }).notNull().default(false),
    /** Extra detail: a tool's whole result, or an error's code. */
    data: text('data', { mode: 'json' }).$type<unknown>(),
    promptTokens: integer('prompt_tokens'),
    completionTokens: integer('completion_tokens'),
    createdAt: createdAt('created_at'),
  },
  (t) => [
    index('idx_bot_chat_messages_session').on(t.sessionId, t.id),
    oneOf('bot_chat_messages_role', t.role, chatRoles),
  ],
);

/**
 * Tokens a bot's provider spent answering sampling requests (G6, X6), by the provider's own
 * counts where it reports them (`estimated` otherwise). Kept apart from `sampling_usage`,
 * which holds the servers' budgets, so one request charged to both is not counted twice.
 */
export const botSamplingUsageTable = sqliteTable(
  'bot_sampling_usage',
  {
    id: uuidPk(),
    botId: botRef(),
    serverName: text('server_name'),
    promptTokens: integer('prompt_tokens').notNull(),
    completionTokens: integer('completion_tokens').notNull(),
    tokens: integer('tokens').notNull(),
    estimated: integer('estimated', { mode: 'boolean' }).notNull().default(false),
    at: createdAt('at'),
  },
  (t) => [index('idx_bot_sampling_usage_bot').on(t.botId)],
);
