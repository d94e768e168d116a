/**
 * The bots' tables on PostgreSQL: `bot-schema.ts` column for column (see `pg-columns.ts`).
 * @module
 */
import { doublePrecision, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { chatRoles } from '../bot-schema.js';
import { createdAt, oneOf, textPk } from './pg-columns.js';

export const botsTable = pgTable('bots', {
  id: textPk(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  category: text('category'),
  systemPrompt: text('system_prompt'),
  llmBaseUrl: text('llm_base_url'),
  llmModel: text('llm_model'),
  llmCredentialKey: text('llm_credential_key'),
  llmTemperature: doublePrecision('llm_temperature'),
  llmMaxTokens: integer('llm_max_tokens'),
  samplingBudgetTokens: integer('sampling_budget_tokens'),
  createdAt: createdAt('created_at'),
  updatedAt: createdAt('updated_at'),
});

const botRef = () =>
  text('bot_id')
    .notNull()
    .references(() => botsTable.id, { onDelete: 'cascade' });

export const botMemoriesTable = pgTable(
  'bot_memories',
  {
    id: textPk(),
    botId: botRef(),
    category: text('category').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt('created_at'),
  },
  (t) => [index('idx_bot_memories_bot').on(t.botId)],
);

export const botSkillsTable = pgTable(
  'bot_skills',
  {
    id: textPk(),
    botId: botRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    template: text('template').notNull(),
    arguments: text('arguments').notNull(),
    createdAt: createdAt('created_at'),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [uniqueIndex('idx_bot_skills_bot_name').on(t.botId, t.name)],
);

export const botWorkflowsTable = pgTable(
  'bot_workflows',
  {
    id: textPk(),
    botId: botRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    steps: text('steps').notNull(),
    createdAt: createdAt('created_at'),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [uniqueIndex('idx_bot_workflows_bot_name').on(t.botId, t.name)],
);

export const botChatSessionsTable = pgTable(
  'bot_chat_sessions',
  {
    id: textPk(),
    botId: botRef(),
    title: text('title').notNull().default(''),
    createdAt: createdAt('created_at'),
  },
  (t) => [index('idx_bot_chat_sessions_bot').on(t.botId)],
);

/** Ordered by `id` as on SQLite: an identity column, increasing with each insert. */
export const botChatMessagesTable = pgTable(
  'bot_chat_messages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    sessionId: text('session_id')
      .notNull()
      .references(() => botChatSessionsTable.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    content: text('content').notNull().default(''),
    toolCalls: text('tool_calls'),
    toolCallId: text('tool_call_id'),
    toolName: text('tool_name'),
    isError: integer('is_error').notNull().default(0),
    data: text('data'),
    promptTokens: integer('prompt_tokens'),
    completionTokens: integer('completion_tokens'),
    createdAt: createdAt('created_at'),
  },
  (t) => [
    index('idx_bot_chat_messages_session').on(t.sessionId, t.id),
    oneOf('bot_chat_messages_role', t.role, chatRoles),
  ],
);

export const botSamplingUsageTable = pgTable(
  'bot_sampling_usage',
  {
    id: textPk(),
    botId: botRef(),
    serverName: text('server_name'),
    promptTokens: integer('prompt_tokens').notNull(),
    completionTokens: integer('completion_tokens').notNull(),
    tokens: integer('tokens').notNull(),
    estimated: integer('estimated').notNull().default(0),
    at: createdAt('at'),
  },
  (t) => [index('idx_bot_sampling_usage_bot').on(t.botId)],
);
