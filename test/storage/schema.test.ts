import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenDb } from '../../src/storage/create-db.js';
import {
  apiTokensTable,
  botMemoriesTable,
  botsTable,
  mcpAuditTable,
  mcpConnectionsTable,
  toolPinsTable,
} from '../../src/storage/schema.js';
import { constraintCode, DIALECTS, openTestDb } from '../support/test-db.js';

describe.each(DIALECTS)('schema (%s)', (dialect) => {
  let store: OpenDb;
  beforeEach(async () => {
    store = await openTestDb(dialect);
  });
  afterEach(async () => {
    await store.close();
  });

  it('deletes a bot’s memories and tokens with the bot', async () => {
    const { db } = store;
    const [bot] = await db.insert(botsTable).values({ slug: 'scout', name: 'Scout' }).returning();
    if (!bot) throw new Error('no bot inserted');
    await db.insert(botMemoriesTable).values([
      { botId: bot.id, category: 'fact', content: 'likes tea' },
      { botId: bot.id, category: 'fact', content: 'lives in Lyon' },
    ]);
    await db
      .insert(apiTokensTable)
      .values({ name: 'scout-cli', botId: bot.id, tokenHash: 'a'.repeat(64), prefix: 'bnt_ab' });

    await db.delete(botsTable).where(eq(botsTable.id, bot.id));

    expect(await db.select().from(botMemoriesTable)).toEqual([]);
    expect(await db.select().from(apiTokensTable)).toEqual([]);
  });

  it('refuses a memory for a bot that does not exist', async () => {
    await expect(
      store.db.insert(botMemoriesTable).values({ botId: 'missing', category: 'fact', content: 'x' }),
    ).rejects.toMatchObject({ cause: { code: constraintCode(dialect) } });
  });

  it('fills ids and millisecond timestamps by default', async () => {
    const before = Date.now();
    const [row] = await store.db
      .insert(mcpAuditTable)
      .values({ direction: 'server', eventType: 'tool_call' })
      .returning();
    expect(row?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row?.success).toBe(true);
    expect(row?.sanitized).toBe(false);
    expect(row?.timestamp).toBeInstanceOf(Date);
    expect(row?.timestamp.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(row?.timestamp.getTime()).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('enforces the enum columns in SQL, not only in the types', async () => {
    await expect(
      store.client.execute(
        "insert into mcp_connections (id, server_name, transport_type, status) values ('global:x', 'x', 'stdio', 'exploded')",
      ),
    ).rejects.toMatchObject({ code: constraintCode(dialect) });
    await expect(
      store.client.execute(
        "insert into mcp_audit (id, direction, event_type, timestamp) values ('1', 'sideways', 'e', 0)",
      ),
    ).rejects.toMatchObject({ code: constraintCode(dialect) });
    expect(await store.db.select().from(mcpConnectionsTable)).toEqual([]);
  });

  it('keeps one pin per server and tool', async () => {
    const pin = { serverName: 'fs', toolName: 'read_file', hash: 'h1' };
    await store.db.insert(toolPinsTable).values(pin);
    await expect(store.db.insert(toolPinsTable).values({ ...pin, hash: 'h2' })).rejects.toMatchObject({
      cause: { code: constraintCode(dialect) },
    });
    await store.db.insert(toolPinsTable).values({ ...pin, toolName: 'write_file' });
    expect(await store.db.select().from(toolPinsTable)).toHaveLength(2);
  });

  it('keeps token hashes and bot slugs unique', async () => {
    await store.db.insert(botsTable).values({ slug: 'scout', name: 'Scout' });
    await expect(store.db.insert(botsTable).values({ slug: 'scout', name: 'Other' })).rejects.toMatchObject({
      cause: { code: constraintCode(dialect) },
    });
    await store.db.insert(apiTokensTable).values({ name: 'a', tokenHash: 'h', prefix: 'p' });
    await expect(
      store.db.insert(apiTokensTable).values({ name: 'b', tokenHash: 'h', prefix: 'p' }),
    ).rejects.toMatchObject({
      cause: { code: constraintCode(dialect) },
    });
  });
});
