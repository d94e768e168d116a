import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, createClient } from '@libsql/client';
import { count } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AUDIT_ERROR_MAX,
  AUDIT_NAME_MAX,
  type AuditEntry,
  auditHash,
  createAuditWriter,
} from '../../src/storage/audit-writer.js';
import { createDb, type OpenDb } from '../../src/storage/create-db.js';
import { mcpAuditTable } from '../../src/storage/schema.js';
import { useTempDirs } from '../support/temp-dir.js';
import { DIALECTS, type Dialect, openTestDb } from '../support/test-db.js';

const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  direction: 'server',
  eventType: 'tool_call',
  success: true,
  ...over,
});

describe('auditHash', () => {
  it('is the same for the same input, whatever the key order, at every depth', () => {
    const a = auditHash({ b: 1, a: { y: [1, { q: 1, p: 2 }], x: 'z' } });
    const b = auditHash({ a: { x: 'z', y: [1, { p: 2, q: 1 }] }, b: 1 });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toBe(b);
    expect(auditHash({ a: 1 })).not.toBe(auditHash({ a: 2 }));
    expect(auditHash([1, 2])).not.toBe(auditHash([2, 1]));
  });

  it('is null when absent', () => {
    expect(auditHash(undefined)).toBeNull();
  });
});

describe('createAuditWriter', () => {
  const tempDir = useTempDirs();
  const opened: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  const open = async (url = ':memory:', busyTimeoutMs?: number) => {
    const store = await createDb({ url, ...(busyTimeoutMs !== undefined && { busyTimeoutMs }) });
    opened.push(store);
    return store;
  };
  const fakeLog = () => ({ warn: vi.fn() });
  const rowCount = async (store: OpenDb) => {
    const [row] = await store.db.select({ n: count() }).from(mcpAuditTable);
    return row?.n ?? 0;
  };

  const openOn = async (dialect: Dialect) => {
    const store = await openTestDb(dialect);
    opened.push(store);
    return store;
  };

  describe.each(DIALECTS)('on %s', (dialect) => {
    it('stores hashes, not payloads, and null hashes when absent; truncates errors', async () => {
      const store = await openOn(dialect);
      const at = new Date('2025-01-02T03:04:05.678Z');
      const writer = createAuditWriter(store.db, { log: fakeLog(), storePayloads: true });
      writer.record(
        entry({
          serverName: 'fs',
          botId: 'scout',
          clientId: 'tok1',
          toolName: 'read',
          input: { path: '/a', mode: 'r' },
          output: { text: 'secret content' },
          durationMs: 12,
          success: false,
          error: 'x'.repeat(2_000),
          sanitized: true,
          tokenUsage: 7,
          at,
        }),
      );
      writer.record(entry({ eventType: 'connect' }));
      expect(writer.pending()).toBe(2);
      await writer.close();
      expect(writer.pending()).toBe(0);

      const rows = await store.db.select().from(mcpAuditTable);
      const full = rows.find((r) => r.eventType === 'tool_call');
      expect(full).toMatchObject({
        direction: 'server',
        serverName: 'fs',
        botId: 'scout',
        clientId: 'tok1',
        toolName: 'read',
        inputHash: auditHash({ mode: 'r', path: '/a' }),
        outputHash: auditHash({ text: 'secret content' }),
        durationMs: 12,
        success: false,
        sanitized: true,
        tokenUsage: 7,
        timestamp: at,
      });
      expect(full?.error).toHaveLength(AUDIT_ERROR_MAX);
      expect(JSON.stringify(rows)).not.toContain('secret content');
      const bare = rows.find((r) => r.eventType === 'connect');
      expect(bare).toMatchObject({ inputHash: null, outputHash: null, error: null, sanitized: false, success: true });
    });

    it('writes 1000 records as exactly 1000 rows in two multi-row INSERTs', async () => {
      const store = await openOn(dialect);
      const execute = vi.spyOn(store.client, 'execute');
      const writer = createAuditWriter(store.db, { log: fakeLog(), batchMs: 60_000 });
      for (let i = 0; i < 1_000; i += 1) writer.record(entry({ toolName: `t${i}` }));
      await writer.flush();
      const inserts = execute.mock.calls.filter(([stmt]: unknown[]) =>
        /^insert into "mcp_audit"/i.test(typeof stmt === 'string' ? stmt : (stmt as { sql: string }).sql),
      );
      expect(inserts).toHaveLength(2);
      expect(await rowCount(store)).toBe(1_000);
      expect(writer.pending()).toBe(0);
      await writer.close();
    });

    it('flushes on its own timer, and at once when maxBatch is reached', async () => {
      const store = await openOn(dialect);
      const timed = createAuditWriter(store.db, { log: fakeLog(), batchMs: 20 });
      timed.record(entry());
      await vi.waitFor(async () => expect(await rowCount(store)).toBe(1), { timeout: 2_000 });

      const full = createAuditWriter(store.db, { log: fakeLog(), batchMs: 60_000, maxBatch: 10 });
      for (let i = 0; i < 10; i += 1) full.record(entry());
      await vi.waitFor(async () => expect(await rowCount(store)).toBe(11), { timeout: 2_000 });
      await timed.close();
      await full.close();
    });

    it('keeps 500 entries recorded by concurrent producers: exactly 500 rows', async () => {
      const store = await openOn(dialect);
      const writer = createAuditWriter(store.db, { log: fakeLog(), batchMs: 5, maxBatch: 37 });
      await Promise.all(
        Array.from({ length: 50 }, async (_, producer) => {
          for (let i = 0; i < 10; i += 1) {
            await sleep(Math.floor(Math.random() * 3));
            writer.record(entry({ clientId: `p${producer}`, toolName: `t${i}` }));
          }
        }),
      );
      await writer.close();
      expect(await rowCount(store)).toBe(500);
      const ids = await store.db.select({ id: mcpAuditTable.id }).from(mcpAuditTable);
      expect(new Set(ids.map((r) => r.id)).size).toBe(500);
    });
  });

  describe('when the database is locked by another connection', () => {
    /** A file database with a 20 ms busy timeout, and a second client holding its write lock. */
    const locked = async () => {
      const url = `file:${join(await tempDir(), 'audit.db')}`;
      const store = await open(url, 20);
      const other: Client = createClient({ url });
      opened.push(other);
      const tx = await other.transaction('write');
      await tx.execute(
        "insert into mcp_audit (id, direction, event_type, success, sanitized, timestamp) values ('other', 'client', 'x', 1, 0, 0)",
      );
      return { store, release: () => tx.commit() };
    };

    it('a failed flush keeps the rows queued, warns, and a later flush writes them all', async () => {
      const { store, release } = await locked();
      const log = fakeLog();
      const writer = createAuditWriter(store.db, { log, batchMs: 60_000, busyRetry: { retries: 0 } });
      for (let i = 0; i < 25; i += 1) writer.record(entry({ toolName: `t${i}` }));

      const error = await writer.flush().catch((e: unknown) => e);
      expect(error).toMatchObject({ cause: { code: 'SQLITE_BUSY' } });
      expect(writer.pending()).toBe(25);
      expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ pending: 25 }), 'audit write failed; will retry');

      await release();
      await writer.flush();
      expect(writer.pending()).toBe(0);
      const rows = await store.db.select({ tool: mcpAuditTable.toolName }).from(mcpAuditTable);
      expect(rows.filter((r) => r.tool !== null).map((r) => r.tool)).toEqual(
        expect.arrayContaining(Array.from({ length: 25 }, (_, i) => `t${i}`)),
      );
      expect(await rowCount(store)).toBe(26);
      await writer.close();
    });

    it('the timer retries a failed write by itself once the lock is gone', async () => {
      const { store, release } = await locked();
      const log = fakeLog();
      const writer = createAuditWriter(store.db, { log, batchMs: 10, busyRetry: { retries: 0 } });
      for (let i = 0; i < 5; i += 1) writer.record(entry());
      await vi.waitFor(() => expect(log.warn).toHaveBeenCalled(), { timeout: 2_000 });
      expect(writer.pending()).toBe(5);
      await release();
      await vi.waitFor(async () => expect(await rowCount(store)).toBe(6), { timeout: 5_000 });
      expect(writer.pending()).toBe(0);
      await writer.close();
    });

    it('close() retries until the queue is written', async () => {
      const { store, release } = await locked();
      const writer = createAuditWriter(store.db, { log: fakeLog(), batchMs: 10, busyRetry: { retries: 0 } });
      for (let i = 0; i < 7; i += 1) writer.record(entry());
      const released = sleep(100).then(release);
      await writer.close();
      await released;
      expect(writer.pending()).toBe(0);
      expect(await rowCount(store)).toBe(8);
    });
  });

  it('hashes after record() has returned, not in it, and each listed item only once', async () => {
    const store = await open();
    const writer = createAuditWriter(store.db, { log: fakeLog(), batchMs: 60_000 });
    const toJSON = vi.fn(() => ({ name: 'listed' }));
    const items = [{ toJSON }, ...Array.from({ length: 99 }, (_, i) => ({ name: `t${i}` }))];
    // The same listing again, and a new listing of the same items (as a rebuilt tools/list).
    writer.record(entry({ eventType: 'tools_list', output: items }));
    writer.record(entry({ eventType: 'tools_list', output: items }));
    writer.record(entry({ eventType: 'tools_list', output: [...items] }));
    expect(toJSON).not.toHaveBeenCalled();
    await writer.flush();
    expect(toJSON).toHaveBeenCalledTimes(1);
    const rows = await store.db.select({ hash: mcpAuditTable.outputHash }).from(mcpAuditTable);
    const expected = auditHash([{ name: 'listed' }, ...items.slice(1)]);
    expect(rows.map((r) => r.hash)).toEqual([expected, expected, expected]);
    await writer.close();
  });

  it('hashes arguments nested deeper than the stack allows, and bounds every stored name', async () => {
    const store = await open();
    const log = fakeLog();
    const writer = createAuditWriter(store.db, { log, batchMs: 60_000 });
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const huge = 't'.repeat(2_000_000);
    writer.record(
      entry({ toolName: huge, serverName: huge, clientId: huge, botId: huge, eventType: huge, input: deep }),
    );
    await writer.flush();
    const [row] = await store.db.select().from(mcpAuditTable);
    expect(row?.inputHash).toMatch(/^[0-9a-f]{64}$/);
    for (const name of [row?.toolName, row?.serverName, row?.clientId, row?.botId, row?.eventType]) {
      expect(name).toHaveLength(AUDIT_NAME_MAX);
      expect(name?.endsWith('… (2000000 chars)')).toBe(true);
    }
    expect(log.warn).not.toHaveBeenCalled();
    await writer.close();
  });

  it('drops, with a warning, what is recorded after close()', async () => {
    const store = await open();
    const log = fakeLog();
    const writer = createAuditWriter(store.db, { log });
    await writer.close();
    writer.record(entry());
    expect(writer.pending()).toBe(0);
    expect(log.warn).toHaveBeenCalledTimes(1);
  });
});
