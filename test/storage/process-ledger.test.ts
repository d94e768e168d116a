import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type OpenDb } from '../../src/storage/create-db.js';
import { createProcessLedger } from '../../src/storage/process-ledger.js';
import { upstreamProcessesTable } from '../../src/storage/schema.js';
import { useTempDirs } from '../support/temp-dir.js';
import { createPostgresDatabase, DIALECTS, openTestDb } from '../support/test-db.js';

describe.each(DIALECTS)('process ledger (%s)', (dialect) => {
  const tempDir = useTempDirs();
  let store: OpenDb;
  beforeEach(async () => {
    store = await openTestDb(dialect);
  });
  afterEach(async () => {
    await store.close();
  });

  it('lists spawned children until they exit', async () => {
    let clock = 1_000;
    const ledger = createProcessLedger(store.db, { now: () => clock++ });
    await ledger.recordSpawn({ serverId: 'fs', pid: 300, startTime: '123456' });
    await ledger.recordSpawn({ serverId: 'memory', pid: 200, startTime: '123999' });
    expect(await ledger.list()).toEqual([
      { pid: 300, startTime: '123456', serverId: 'fs' },
      { pid: 200, startTime: '123999', serverId: 'memory' },
    ]);

    await ledger.recordExit(300);
    expect(await ledger.list()).toEqual([{ pid: 200, startTime: '123999', serverId: 'memory' }]);
    await ledger.forget(200);
    expect(await ledger.list()).toEqual([]);
  });

  it('records the spawn time from its clock', async () => {
    const ledger = createProcessLedger(store.db, { now: () => 1_700_000_000_123 });
    await ledger.recordSpawn({ serverId: 'fs', pid: 1, startTime: '1' });
    const [row] = await store.db.select().from(upstreamProcessesTable);
    expect(row?.spawnedAt).toEqual(new Date(1_700_000_000_123));
  });

  it('replaces the entry when a pid is reused by a new spawn', async () => {
    const ledger = createProcessLedger(store.db);
    await ledger.recordSpawn({ serverId: 'fs', pid: 77, startTime: '100' });
    await ledger.recordSpawn({ serverId: 'git', pid: 77, startTime: '900' });
    expect(await ledger.list()).toEqual([{ pid: 77, startTime: '900', serverId: 'git' }]);
  });

  it('treats the exit of an unknown pid as a no-op', async () => {
    const ledger = createProcessLedger(store.db);
    await expect(ledger.recordExit(12345)).resolves.toBeUndefined();
  });

  it('survives a restart: a second run reads what the first recorded', async () => {
    const database =
      dialect === 'sqlite'
        ? { url: `file:${join(await tempDir(), 'b.db')}`, drop: async () => {} }
        : await createPostgresDatabase();
    const url = database.url;
    const first = await createDb({ url });
    await createProcessLedger(first.db).recordSpawn({ serverId: 'fs', pid: 4321, startTime: '555' });
    await first.close();
    const second = await createDb({ url });
    try {
      expect(await createProcessLedger(second.db).list()).toEqual([{ pid: 4321, startTime: '555', serverId: 'fs' }]);
    } finally {
      await second.close();
      await database.drop();
    }
  });
});
