import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenDb } from '../../src/storage/create-db.js';
import {
  botChatMessagesTable,
  botChatSessionsTable,
  botSamplingUsageTable,
  botSkillsTable,
  botsTable,
  botWorkflowsTable,
} from '../../src/storage/schema.js';
import { constraintCode, DIALECTS, openTestDb } from '../support/test-db.js';

describe.each(DIALECTS)('bot schema (%s)', (dialect) => {
  let store: OpenDb;
  beforeAll(async () => {
    store = await openTestDb(dialect);
  });
  afterAll(async () => {
    await store.close();
  });

  it('deletes skills, workflows, chat history and sampling usage with their bot', async () => {
    const { db } = store;
    const [bot] = await db.insert(botsTable).values({ slug: 'owner', name: 'Owner', llmTemperature: 0.5 }).returning();
    if (!bot) throw new Error('no bot');
    expect(bot.llmTemperature).toBe(0.5);
    await db.insert(botSkillsTable).values({ botId: bot.id, name: 's', template: 't', arguments: [{ name: 'a' }] });
    await db
      .insert(botWorkflowsTable)
      .values({ botId: bot.id, name: 'w', steps: [{ id: 'x', tool: 't', arguments: {} }] });
    const [session] = await db.insert(botChatSessionsTable).values({ botId: bot.id }).returning();
    if (!session) throw new Error('no session');
    await db.insert(botChatMessagesTable).values([
      { sessionId: session.id, role: 'user', content: 'hi' },
      { sessionId: session.id, role: 'assistant', toolCalls: [{ id: 'c', name: 'n', arguments: '{}' }] },
    ]);
    await db.insert(botSamplingUsageTable).values({ botId: bot.id, promptTokens: 1, completionTokens: 2, tokens: 3 });
    expect((await db.select().from(botChatMessagesTable)).map((m) => m.role)).toEqual(['user', 'assistant']);

    await db.delete(botsTable).where(eq(botsTable.id, bot.id));
    for (const table of [
      botSkillsTable,
      botWorkflowsTable,
      botChatSessionsTable,
      botChatMessagesTable,
      botSamplingUsageTable,
    ])
      expect(await db.select().from(table)).toEqual([]);
  });

  it('keeps skill and workflow names unique per bot, and chat roles honest in SQL', async () => {
    const { db } = store;
    const [a] = await db.insert(botsTable).values({ slug: 'a', name: 'A' }).returning();
    const [b] = await db.insert(botsTable).values({ slug: 'b', name: 'B' }).returning();
    if (!a || !b) throw new Error('no bots');
    const skill = { name: 'same', template: 't', arguments: [] };
    await db.insert(botSkillsTable).values({ ...skill, botId: a.id });
    await db.insert(botSkillsTable).values({ ...skill, botId: b.id });
    await expect(db.insert(botSkillsTable).values({ ...skill, botId: a.id })).rejects.toMatchObject({
      cause: { code: constraintCode(dialect) },
    });
    const [session] = await db.insert(botChatSessionsTable).values({ botId: a.id }).returning();
    await expect(
      store.client.execute({
        sql: "insert into bot_chat_messages (session_id, role, content) values (?, 'system', 'x')",
        args: [session?.id ?? ''],
      }),
    ).rejects.toMatchObject({ code: constraintCode(dialect) });
  });
});
