import { statSync } from 'node:fs';
import { join } from 'node:path';
import { asc, count } from 'drizzle-orm';
import * as prom from 'prom-client';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addAuditMetrics } from '../../src/metrics/add-audit-metrics.js';
import { type AuditEntry, createAuditWriter } from '../../src/storage/audit-writer.js';
import { createDb, type OpenDb } from '../../src/storage/create-db.js';
import { mcpAuditTable } from '../../src/storage/schema.js';
import { useTempDirs } from '../support/temp-dir.js';

const START = Date.parse('2026-01-01T00:00:00Z');
/** Row `i`, one second after row `i - 1`, with an error text that makes it about 1 KB. */
const row = (i: number): AuditEntry => ({
  direction: 'server',
  eventType: 'tool_call',
  toolName: `t${i}`,
  input: { i },
  success: false,
  error: 'e'.repeat(450),
  at: new Date(START + i * 1_000),
});

describe('the audit byte cap and incremental vacuum', () => {
  const tempDir = useTempDirs();
  const opened: OpenDb[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  const open = async () => {
    const file = join(await tempDir(), 'a.db');
    const store = await createDb({ url: `file:${file}` });
    opened.push(store);
    return { store, file };
  };
  const fill = async (writer: ReturnType<typeof createAuditWriter>, from: number, to: number) => {
    for (let i = from; i < to; i += 1) writer.record(row(i));
    await writer.flush();
  };
  const rows = async (store: OpenDb) => (await store.db.select({ n: count() }).from(mcpAuditTable))[0]?.n ?? 0;
  /** The file's size once the WAL is written back into it. */
  const fileSize = async (store: OpenDb, file: string) => {
    await store.client.execute('pragma wal_checkpoint(TRUNCATE)');
    return statSync(file).size;
  };

  it('deletes the oldest rows first until under the cap, counts them, and warns once a minute', async () => {
    const { store } = await open();
    const log = { warn: vi.fn() };
    const maxBytes = 1024 * 1024;
    const writer = createAuditWriter(store.db, {
      log,
      batchMs: 60_000,
      cap: { maxBytes: () => maxBytes, batchRows: 200 },
    });
    const cap = writer.cap;
    if (!cap) throw new Error('a writer given a cap has one');
    await fill(writer, 0, 4_000);
    // A check the writer started as the rows went in, or this one.
    await cap.enforce();

    const { bytes, droppedRows: dropped } = cap.stats();
    expect(dropped).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(maxBytes);
    expect(await rows(store)).toBe(4_000 - dropped);
    // The oldest went: what is left is the newest, without a gap.
    const [first] = await store.db
      .select({ at: mcpAuditTable.timestamp })
      .from(mcpAuditTable)
      .orderBy(asc(mcpAuditTable.timestamp))
      .limit(1);
    expect(first?.at.getTime()).toBe(START + dropped * 1_000);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ dropped, maxBytes }),
      'audit over its byte cap (audit.maxBytes); oldest rows deleted',
    );

    // More rows: deleted again, counted, but no second warning within the minute.
    await fill(writer, 4_000, 6_000);
    await cap.enforce();
    const again = cap.stats().droppedRows - dropped;
    expect(again).toBeGreaterThan(0);
    expect(await rows(store)).toBe(6_000 - dropped - again);
    expect(log.warn).toHaveBeenCalledTimes(1);

    const registry = new Registry();
    addAuditMetrics(prom, registry, cap.stats);
    const text = await registry.metrics();
    expect(text).toContain(`boternity_audit_rows_dropped_total ${dropped + again}`);
    expect(text).toContain(`boternity_audit_max_bytes ${maxBytes}`);
    expect(text).toMatch(/^boternity_audit_bytes \d+$/m);
    await writer.close();
  });

  it('checks by itself as rows come in, and leaves an audit under its cap alone', async () => {
    const { store } = await open();
    const log = { warn: vi.fn() };
    let maxBytes = 64 * 1024 * 1024;
    const writer = createAuditWriter(store.db, { log, batchMs: 60_000, cap: { maxBytes: () => maxBytes } });
    await fill(writer, 0, 2_000);
    expect(await writer.cap?.enforce()).toBe(0);
    expect(await rows(store)).toBe(2_000);
    // A lower cap (a hot reload): the writer's next growth past 1/32 of it triggers a check.
    maxBytes = 1024 * 1024;
    await fill(writer, 2_000, 2_200);
    await vi.waitFor(() => expect(writer.cap?.stats().droppedRows).toBeGreaterThan(0), { timeout: 5_000 });
    await writer.close();
  });

  it('gives the space of deleted rows back to the file system', async () => {
    const { store, file } = await open();
    const writer = createAuditWriter(store.db, {
      log: { warn: vi.fn() },
      batchMs: 60_000,
      cap: { maxBytes: () => 2 ** 40 },
    });
    await fill(writer, 0, 4_000);
    const full = await fileSize(store, file);
    expect(await writer.cap?.prune(new Date(START + 3_000 * 1_000))).toBe(3_000);
    const after = await fileSize(store, file);
    expect(await rows(store)).toBe(1_000);
    expect(after).toBeLessThan(full / 2);
    await writer.close();
  });
});
