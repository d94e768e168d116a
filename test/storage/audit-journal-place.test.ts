/**
 * Where the audit journal lives (issue 20): a directory of its own beside the database, so its
 * appends do not wake a watcher of the directory the config shares with the database; the
 * segments a run of the former layout left beside the database are read back once, written,
 * and removed.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Logger } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { auditJournalPaths, openAuditJournal } from '../../src/storage/audit-journal.js';
import { createRowMaker } from '../../src/storage/audit-row.js';
import { auditHash, createAuditWriter } from '../../src/storage/audit-writer.js';
import { createDb } from '../../src/storage/create-db.js';
import { mcpAuditTable } from '../../src/storage/schema.js';
import { toolCallEntry, useAuditStores } from '../support/audit-stores.js';
import { captureLog, LEVEL } from '../support/capture-log.js';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const call = toolCallEntry;

/** A service on `home` with one stdio server, `gw`, and an MCP client once it is connected. */
async function withService(home: string, log: Logger | undefined, use: (client: Client) => Promise<void>) {
  const svc = await startTestService(
    { mcpServers: { gw: { command: process.execPath, args: [GATEWAY_SERVER], healthIntervalMs: 60_000 } } },
    { home, ...(log ? { log } : {}) },
  );
  let client: Client | undefined;
  try {
    await waitFor(async () => (await svc.server('gw'))?.state === 'connected', {
      what: 'gw connected',
      timeoutMs: 20_000,
    });
    client = await connectHttpClient(`${svc.service.url}/mcp`);
    await use(client);
  } finally {
    await client?.close();
    await svc.stop();
  }
}

/** Waits until `mcp_audit` in `home` holds a row of each echo text. */
async function rowsReach(home: string, texts: readonly string[]): Promise<void> {
  const store = await createDb({ url: `file:${join(home, 'boternity.db')}` });
  try {
    await waitFor(
      async () => {
        const hashes = (await store.db.select({ hash: mcpAuditTable.inputHash }).from(mcpAuditTable)).map(
          (r) => r.hash,
        );
        return texts.every((text) => hashes.includes(auditHash({ text })));
      },
      { what: `rows of ${texts.join(', ')} in mcp_audit`, timeoutMs: 10_000 },
    );
  } finally {
    await store.close();
  }
}

/** Journal segment files (`NAME.N`) in `dir`. */
const segmentsIn = (dir: string, name: string) =>
  existsSync(dir)
    ? readdirSync(dir).filter((file) => file.startsWith(`${name}.`) && /^\d+$/.test(file.slice(name.length + 1)))
    : [];

describe('the audit journal, where it lives', () => {
  const { open, tempDir } = useAuditStores();

  it('is a directory beside the database file, or in the home for a remote database', () => {
    expect(auditJournalPaths('/h/boternity.db', '/h')).toEqual({
      path: '/h/boternity.db-audit/segment',
      before: '/h/boternity.db-audit',
    });
    expect(auditJournalPaths(null, '/h')).toEqual({ path: '/h/audit-journal/segment', before: '/h/audit-journal' });
  });

  it('reads the segments of its former place first, numbers its own after its own, and removes both once sealed', async () => {
    const dir = await tempDir();
    const rows = createRowMaker({ warn: vi.fn() });
    const [a, b] = [rows.row(call('a'), new Date()), rows.row(call('b'), new Date())];
    const before = openAuditJournal(join(dir, 'old'));
    before.append([a]);
    before.seal();
    before.append([b]);
    before.close();
    mkdirSync(join(dir, 'new'));
    const journal = openAuditJournal(join(dir, 'new', 'segment'), join(dir, 'old'));
    expect(journal.leftover.torn).toBe(0);
    expect(journal.leftover.rows.map((row) => row[0])).toEqual([a[0], b[0]]);
    journal.append([['c']]);
    const sealed = journal.seal();
    expect(sealed).toEqual([join(dir, 'old.1'), join(dir, 'old.2'), join(dir, 'new', 'segment.1')]);
    journal.remove(sealed);
    expect(segmentsIn(dir, 'old')).toEqual([]);
    expect(segmentsIn(join(dir, 'new'), 'segment')).toEqual([]);
  });

  it('a writer opened on the new place writes what a dead writer of the former layout journaled, then removes it', async () => {
    const { store, dir } = await open();
    const log = { warn: vi.fn() };
    const { path, before } = auditJournalPaths(join(dir, 'a.db'), dir);
    // Never flushed nor closed: as a process of the former layout killed with its queue in memory.
    const dead = createAuditWriter(store.db, { log, batchMs: 60_000, journalPath: before });
    dead.commit(call('old'));
    expect(segmentsIn(dir, 'a.db-audit')).toHaveLength(1);

    mkdirSync(join(dir, 'a.db-audit'));
    const next = createAuditWriter(store.db, { log, batchMs: 60_000, journalPath: path, journalBefore: before });
    next.commit(call('new'));
    expect(segmentsIn(join(dir, 'a.db-audit'), 'segment')).toHaveLength(1);
    await next.flush();
    expect(segmentsIn(dir, 'a.db-audit')).toEqual([]);
    expect(segmentsIn(join(dir, 'a.db-audit'), 'segment')).toEqual([]);
    const hashes = (await store.db.select({ hash: mcpAuditTable.inputHash }).from(mcpAuditTable)).map((r) => r.hash);
    expect(hashes).toEqual([auditHash({ text: 'old' }), auditHash({ text: 'new' })]);
    await next.close();
  });

  it('in the service: a tool call journals into the directory, none beside the config, and a former segment is written', async () => {
    const home = await tempDir();
    // A segment of the former layout, as a killed run left it beside the database.
    const seed = await createDb({ url: `file:${join(home, 'boternity.db')}` });
    createAuditWriter(seed.db, {
      log: { warn: vi.fn() },
      batchMs: 60_000,
      journalPath: join(home, 'boternity.db-audit'),
    }).commit(call('left by a killed run'));
    await seed.close();
    expect(segmentsIn(home, 'boternity.db-audit')).toHaveLength(1);

    await withService(home, undefined, async (client) => {
      await client.callTool({ name: 'gw__echo', arguments: { text: 'now' } });
      // The row is on disk when the answer is in: in the journal's own directory.
      expect(segmentsIn(join(home, 'boternity.db-audit'), 'segment').length).toBeGreaterThan(0);
      expect(segmentsIn(home, 'boternity.db-audit')).toEqual([]);
      await rowsReach(home, ['left by a killed run', 'now']);
    });
  }, 60_000);

  it('a journal directory that cannot be made: the service starts, says so once, and the rows still reach the audit', async () => {
    const home = await tempDir();
    // A file where the directory should be: nothing can be appended under it.
    writeFileSync(join(home, 'boternity.db-audit'), 'not a directory');
    const { log, lines } = captureLog('warn');
    await withService(home, log, async (client) => {
      await client.callTool({ name: 'gw__echo', arguments: { text: 'one' } });
      await client.callTool({ name: 'gw__echo', arguments: { text: 'two' } });
      const warned = lines.filter((line) => line.level === LEVEL.warn).map((line) => line.msg);
      expect(warned).toContain('audit journal directory not created');
      expect(warned.filter((msg) => msg.startsWith('audit journal write failed'))).toHaveLength(1);
      await rowsReach(home, ['one', 'two']);
    });
  }, 60_000);
});
