import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_ROW_FIELDS, pruneAudit, queryAudit } from '../../src/storage/audit-query.js';
import { createAuditWriter } from '../../src/storage/audit-writer.js';
import type { OpenDb } from '../../src/storage/create-db.js';
import { DIALECTS, openTestDb } from '../support/test-db.js';

const log = { warn: () => undefined };
const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute));

describe.each(DIALECTS)('queryAudit and pruneAudit (%s)', (dialect) => {
  let store: OpenDb;
  beforeEach(async () => {
    store = await openTestDb(dialect);
    const writer = createAuditWriter(store.db, { log });
    writer.record({ direction: 'client', eventType: 'connect', serverName: 'fs', success: true, at: at(1) });
    writer.record({
      direction: 'server',
      eventType: 'tool_call',
      serverName: 'fs',
      botId: 'scout',
      clientId: 'tok-a',
      toolName: 'read',
      input: { path: '/x' },
      success: true,
      at: at(2),
    });
    writer.record({
      direction: 'client',
      eventType: 'tool_call',
      serverName: 'git',
      botId: 'scout',
      toolName: 'log',
      success: false,
      error: 'boom',
      at: at(3),
    });
    writer.record({
      direction: 'server',
      eventType: 'sampling_request',
      serverName: 'git',
      botId: 'coder',
      clientId: 'tok-b',
      success: true,
      tokenUsage: 42,
      sanitized: true,
      at: at(4),
    });
    await writer.close();
  });
  afterEach(async () => {
    await store.close();
  });

  const minutes = (rows: { timestamp: string }[]) => rows.map((r) => new Date(r.timestamp).getUTCMinutes());

  it('returns every entry newest first, in the section 7 shape', async () => {
    const rows = await queryAudit(store.db);
    expect(minutes(rows)).toEqual([4, 3, 2, 1]);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual([...AUDIT_ROW_FIELDS].sort());
    expect(rows[0]).toMatchObject({
      timestamp: '2025-01-01T00:04:00.000Z',
      direction: 'server',
      eventType: 'sampling_request',
      tokenUsage: 42,
      sanitized: true,
      success: true,
      inputHash: null,
    });
    expect(rows[2]?.inputHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('filters by each field', async () => {
    expect(minutes(await queryAudit(store.db, { server: 'fs' }))).toEqual([2, 1]);
    expect(minutes(await queryAudit(store.db, { bot: 'scout' }))).toEqual([3, 2]);
    expect(minutes(await queryAudit(store.db, { client: 'tok-b' }))).toEqual([4]);
    expect(minutes(await queryAudit(store.db, { direction: 'client' }))).toEqual([3, 1]);
    expect(minutes(await queryAudit(store.db, { event: 'tool_call' }))).toEqual([3, 2]);
    expect(minutes(await queryAudit(store.db, { tool: 'log' }))).toEqual([3]);
    expect(minutes(await queryAudit(store.db, { since: at(2) }))).toEqual([4, 3, 2]);
    expect(minutes(await queryAudit(store.db, { until: at(3) }))).toEqual([2, 1]);
    expect(minutes(await queryAudit(store.db, { server: 'git', direction: 'server' }))).toEqual([4]);
    expect(await queryAudit(store.db, { server: 'nope' })).toEqual([]);
  });

  it('caps the result at limit (default 100, at most 1000)', async () => {
    expect(minutes(await queryAudit(store.db, { limit: 2 }))).toEqual([4, 3]);
    const writer = createAuditWriter(store.db, { log });
    for (let i = 0; i < 1_100; i += 1) writer.record({ direction: 'client', eventType: 'ping', success: true });
    await writer.close();
    expect(await queryAudit(store.db)).toHaveLength(100);
    expect(await queryAudit(store.db, { limit: 5_000 })).toHaveLength(1_000);
    expect(await queryAudit(store.db, { limit: 0 })).toHaveLength(1);
  });

  it('prunes entries older than a date and reports how many', async () => {
    expect(await pruneAudit(store.db, at(3))).toBe(2);
    expect(minutes(await queryAudit(store.db))).toEqual([4, 3]);
    expect(await pruneAudit(store.db, at(0))).toBe(0);
  });
});
