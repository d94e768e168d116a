/** A long output is hashed after its answer has left (ADR 046): its row first, its hash in a second journal line. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { HASH_LATER_CHARS, holdsLongText, OUTPUT_HASH_COLUMN } from '../../src/storage/audit-row.js';
import { type AuditEntry, auditHash, createAuditWriter } from '../../src/storage/audit-writer.js';
import { mcpAuditTable } from '../../src/storage/schema.js';
import { useAuditStores } from '../support/audit-stores.js';

const long = 'x'.repeat(64 * 1024);
const result = (text: string) => ({ content: [{ type: 'text', text }] });
const call = (text: string, n = 1): AuditEntry => ({
  direction: 'server',
  eventType: 'tool_call',
  toolName: 'bytes',
  input: { n },
  output: result(text),
  success: true,
});

describe('holdsLongText', () => {
  it('finds a text of the threshold within three levels, and nothing shorter, deeper or in a listing', () => {
    expect(holdsLongText('y'.repeat(HASH_LATER_CHARS))).toBe(true);
    expect(holdsLongText('y'.repeat(HASH_LATER_CHARS - 1))).toBe(false);
    expect(holdsLongText(result(long))).toBe(true);
    expect(holdsLongText({ contents: [{ uri: 'u', text: long }] })).toBe(true);
    expect(holdsLongText({ a: { b: { c: long } } })).toBe(true);
    expect(holdsLongText({ a: { b: { c: { d: long } } } })).toBe(false);
    expect(holdsLongText(Array.from({ length: 64 }, () => long))).toBe(false);
    for (const small of [undefined, null, 3, true, {}, [], result('short')]) expect(holdsLongText(small)).toBe(false);
  });
});

describe('an output hashed after the answer (commit)', () => {
  const stores = useAuditStores();
  const open = async () => {
    const { store, dir, journal } = await stores.open();
    const lines = () =>
      readdirSync(dir)
        .filter((name) => name.startsWith('a.db-audit.'))
        .sort()
        .flatMap((name) => readFileSync(join(dir, name), 'utf8').trim().split('\n'))
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as unknown);
    const stored = async () =>
      (await store.db.select().from(mcpAuditTable)).map((r) => ({ input: r.inputHash, output: r.outputHash }));
    return { store, dir, journal, lines, stored };
  };

  it('journals the row before the answer, and its output hash in the next turn, which the database gets', async () => {
    const { store, journal, lines, stored } = await open();
    const writer = createAuditWriter(store.db, { log: { warn: vi.fn() }, batchMs: 60_000, journalPath: journal });
    writer.commit(call(long));
    const [row] = lines() as unknown[][];
    expect(lines()).toHaveLength(1);
    expect(row?.[OUTPUT_HASH_COLUMN - 1]).toBe(auditHash({ n: 1 }));
    expect(row?.[OUTPUT_HASH_COLUMN]).toBeNull();
    await nextTurn();
    expect(lines()).toEqual([row, { id: row?.[0], outputHash: auditHash(result(long)) }]);
    await writer.close();
    expect(await stored()).toEqual([{ input: auditHash({ n: 1 }), output: auditHash(result(long)) }]);
  });

  it('hashes a short output at once: one line, no completion', async () => {
    const { store, journal, lines } = await open();
    const writer = createAuditWriter(store.db, { log: { warn: vi.fn() }, batchMs: 60_000, journalPath: journal });
    writer.commit(call('short'));
    await nextTurn();
    expect(lines()).toHaveLength(1);
    expect((lines()[0] as unknown[])[OUTPUT_HASH_COLUMN]).toBe(auditHash(result('short')));
    await writer.close();
  });

  it('a flush before the turn ends still writes the row with its output hash', async () => {
    const { store, journal, stored } = await open();
    const writer = createAuditWriter(store.db, { log: { warn: vi.fn() }, batchMs: 60_000, journalPath: journal });
    writer.commit(call(long));
    await writer.flush();
    expect(await stored()).toEqual([{ input: auditHash({ n: 1 }), output: auditHash(result(long)) }]);
    await writer.close();
  });

  it('after a kill: a completed row is replayed with its hash, one killed before its completion without it', async () => {
    const { store, journal, dir, stored } = await open();
    const log = { warn: vi.fn() };
    // Never flushed nor closed: a process killed with its queue in memory.
    const dead = createAuditWriter(store.db, { log, batchMs: 60_000, journalPath: journal });
    dead.commit(call(long, 1));
    await nextTurn();
    dead.commit(call(`${long}y`, 2));
    // Killed here: the second row's hash was never journaled (its turn did not end), and a
    // completion of a row nobody journaled, or not one at all, is counted as torn.
    const segment = join(dir, readdirSync(dir).find((name) => name.startsWith('a.db-audit.')) ?? '');
    writeFileSync(segment, `${readFileSync(segment, 'utf8')}{"id":"nobody","outputHash":null}\n{"id":3}\n`);
    const next = createAuditWriter(store.db, { log, batchMs: 60_000, journalPath: journal });
    expect(log.warn).toHaveBeenCalledWith({ rows: 2, torn: 2 }, expect.stringContaining('earlier run'));
    await next.close();
    const rows = await stored();
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual({ input: auditHash({ n: 1 }), output: auditHash(result(long)) });
    expect(rows).toContainEqual({ input: auditHash({ n: 2 }), output: null });
  });

  it('an output that cannot be hashed is still completed (null) and warned about', async () => {
    const { store, journal, lines, stored } = await open();
    const log = { warn: vi.fn() };
    const writer = createAuditWriter(store.db, { log, batchMs: 60_000, journalPath: journal });
    const output: Record<string, unknown> = { content: [{ type: 'text', text: long }] };
    output.self = output;
    writer.commit({ ...call(long), output });
    await nextTurn();
    expect(log.warn).toHaveBeenCalledWith(expect.anything(), 'audit payload not hashable');
    expect(lines()[1]).toEqual({ id: (lines()[0] as unknown[])[0], outputHash: null });
    await writer.close();
    expect(await stored()).toEqual([{ input: auditHash({ n: 1 }), output: null }]);
  });
});
