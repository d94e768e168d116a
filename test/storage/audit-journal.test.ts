import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Client, createClient } from '@libsql/client';
import { describe, expect, it, vi } from 'vitest';
import { openAuditJournal } from '../../src/storage/audit-journal.js';
import { auditHash, createAuditWriter } from '../../src/storage/audit-writer.js';
import { createDb, type OpenDb } from '../../src/storage/create-db.js';
import { mcpAuditTable } from '../../src/storage/schema.js';
import { toolCallEntry, useAuditStores } from '../support/audit-stores.js';

const call = toolCallEntry;

describe('the audit journal (commit)', () => {
  const { open, keep, tempDir } = useAuditStores();
  const segments = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('a.db-audit.'));
  const inputHashes = async (store: OpenDb) =>
    (await store.db.select({ hash: mcpAuditTable.inputHash }).from(mcpAuditTable)).map((r) => r.hash);

  it('has the row on disk when commit() returns, and lets it go once the database has it', async () => {
    const { store, journal, dir } = await open();
    const writer = createAuditWriter(store.db, { log: { warn: vi.fn() }, batchMs: 60_000, journalPath: journal });
    writer.commit(call('a'));
    writer.commit(call('b'));
    const [segment] = segments(dir);
    const lines = readFileSync(join(dir, segment ?? ''), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line)[8])).toEqual([auditHash({ text: 'a' }), auditHash({ text: 'b' })]);
    expect(JSON.stringify(lines)).not.toContain('"text"');
    await writer.flush();
    expect(segments(dir)).toEqual([]);
    expect(await inputHashes(store)).toEqual([auditHash({ text: 'a' }), auditHash({ text: 'b' })]);
    await writer.close();
  });

  it('a writer opened after a crash writes what the dead one journaled, once, and skips a torn line', async () => {
    const { store, journal, dir } = await open();
    const log = { warn: vi.fn() };
    // Never flushed nor closed: as a process killed with its queue in memory.
    const dead = createAuditWriter(store.db, { log, batchMs: 60_000, journalPath: journal });
    for (let i = 0; i < 30; i += 1) dead.commit(call(`t${i}`));
    appendFileSync(join(dir, segments(dir)[0] ?? ''), '["0199', 'utf8');

    const next = createAuditWriter(store.db, { log, batchMs: 60_000, journalPath: journal });
    expect(log.warn).toHaveBeenCalledWith({ rows: 30, torn: 1 }, expect.stringContaining('earlier run'));
    expect(next.pending()).toBe(30);
    await next.close();
    const hashes = await inputHashes(store);
    expect(hashes).toHaveLength(30);
    expect(new Set(hashes)).toEqual(new Set(Array.from({ length: 30 }, (_, i) => auditHash({ text: `t${i}` }))));
    expect(segments(dir)).toEqual([]);
  });

  it('replays a line journaled before the count column existed (one value short), as a row of one', async () => {
    const { store, journal, dir } = await open();
    const dead = createAuditWriter(store.db, { log: { warn: vi.fn() }, batchMs: 60_000, journalPath: journal });
    dead.commit(call('old'));
    const file = join(dir, segments(dir)[0] ?? '');
    const row = JSON.parse(readFileSync(file, 'utf8').trim()) as unknown[];
    expect(row.at(-1)).toBeNull();
    writeFileSync(file, `${JSON.stringify(row.slice(0, -1))}\n`);
    const next = createAuditWriter(store.db, { log: { warn: vi.fn() }, batchMs: 60_000, journalPath: journal });
    await next.close();
    const rows = await store.db.select().from(mcpAuditTable);
    expect(rows.map((r) => [r.inputHash, r.count])).toEqual([[auditHash({ text: 'old' }), null]]);
  });

  it('keeps the journal while writes fail, and lets it go after a write another connection sees', async () => {
    const { store, journal, dir } = await open();
    const impatient = await createDb({ url: `file:${join(dir, 'a.db')}`, busyTimeoutMs: 20 });
    const other: Client = createClient({ url: `file:${join(dir, 'a.db')}` });
    keep(impatient, other);
    const writer = createAuditWriter(store.db, {
      log: { warn: vi.fn() },
      batchMs: 60_000,
      journalPath: journal,
      busyRetry: { retries: 0 },
      client: impatient.writer,
      reconnect: impatient.reopenWriter,
    });
    // Another connection holds the write lock: the audit's INSERT fails.
    const tx = await other.transaction('write');
    await tx.execute("insert into mcp_audit (id, direction, event_type, timestamp) values ('other', 'client', 'x', 0)");
    writer.commit(call('kept'));
    await expect(writer.flush()).rejects.toThrow(/audit insert/);
    expect(segments(dir)).toHaveLength(1);
    expect(writer.pending()).toBe(1);
    await tx.rollback();
    tx.close();
    await writer.flush();
    expect(segments(dir)).toEqual([]);
    expect(await inputHashes(store)).toEqual([auditHash({ text: 'kept' })]);
    await writer.close();
  });

  it('a journal that cannot be written: the row is still queued and written, with one warning', async () => {
    const { store, dir } = await open();
    const log = { warn: vi.fn() };
    const writer = createAuditWriter(store.db, { log, batchMs: 60_000, journalPath: join(dir, 'gone', 'a.db-audit') });
    writer.commit(call('x'));
    writer.commit(call('y'));
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith(expect.anything(), expect.stringContaining('audit journal write failed'));
    await writer.close();
    expect(await inputHashes(store)).toEqual([auditHash({ text: 'x' }), auditHash({ text: 'y' })]);
  });

  it('rows appended while a flush runs go to a new segment, kept until a later flush', async () => {
    const dir = await tempDir();
    const journal = openAuditJournal(join(dir, 'j'));
    journal.append([['a']]);
    expect(journal.seal()).toEqual([join(dir, 'j.1')]);
    journal.append([['b']]);
    journal.remove([join(dir, 'j.1')]);
    expect(readdirSync(dir)).toEqual(['j.2']);
    expect(journal.seal()).toEqual([join(dir, 'j.2')]);
    journal.close();
  });
});
