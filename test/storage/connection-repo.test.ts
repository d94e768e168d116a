import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  globalConnectionId,
  listConnections,
  markAllDisconnected,
  upsertConnection,
} from '../../src/storage/connection-repo.js';
import type { OpenDb } from '../../src/storage/create-db.js';
import { DIALECTS, openTestDb } from '../support/test-db.js';

describe.each(DIALECTS)('connection repo (%s)', (dialect) => {
  let store: OpenDb;
  beforeEach(async () => {
    store = await openTestDb(dialect);
  });
  afterEach(async () => {
    await store.close();
  });

  const fs = { id: globalConnectionId('fs'), serverName: 'fs', transportType: 'stdio' } as const;

  it('names shared connections global:<server>', () => {
    expect(globalConnectionId('fs')).toBe('global:fs');
  });

  it('inserts a connection, then updates the same row', async () => {
    const t0 = new Date(1_700_000_000_000);
    await upsertConnection(store.db, { ...fs, status: 'connecting', attempt: 1, updatedAt: t0 });
    expect(await listConnections(store.db)).toEqual([
      expect.objectContaining({
        id: 'global:fs',
        status: 'connecting',
        attempt: 1,
        pid: null,
        toolCount: 0,
        updatedAt: t0,
      }),
    ]);

    const t1 = new Date(1_700_000_001_234);
    await upsertConnection(store.db, {
      ...fs,
      status: 'connected',
      pid: 4242,
      connectedAt: t1,
      toolCount: 3,
      resourceCount: 2,
      resourceTemplateCount: 1,
      promptCount: 4,
      lastHealthPing: t1,
      pingLatencyMs: 7,
      updatedAt: t1,
    });
    const rows = await listConnections(store.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'connected',
      attempt: 0,
      pid: 4242,
      connectedAt: t1,
      toolCount: 3,
      resourceTemplateCount: 1,
      pingLatencyMs: 7,
      updatedAt: t1,
    });
  });

  it('resets columns a new snapshot leaves out, so no stale error survives', async () => {
    await upsertConnection(store.db, { ...fs, status: 'reconnecting', attempt: 3, errorMessage: 'spawn ENOENT' });
    await upsertConnection(store.db, { ...fs, status: 'connected', errorMessage: undefined });
    expect((await listConnections(store.db))[0]).toMatchObject({ status: 'connected', attempt: 0, errorMessage: null });
  });

  it('keeps a per-bot connection to the same server in its own row', async () => {
    await upsertConnection(store.db, { ...fs, status: 'connected' });
    await upsertConnection(store.db, { ...fs, id: 'bot:scout:fs', botId: 'scout', status: 'connecting' });
    const rows = await listConnections(store.db);
    expect(rows.map((row) => [row.id, row.botId, row.status])).toEqual([
      ['bot:scout:fs', 'scout', 'connecting'],
      ['global:fs', null, 'connected'],
    ]);
  });

  it('marks rows a previous run left live as disconnected, and leaves disabled ones alone', async () => {
    const earlier = new Date(1_700_000_000_000);
    const now = new Date(1_700_000_100_000);
    await upsertConnection(store.db, { ...fs, status: 'connected', pid: 99, connectedAt: earlier });
    await upsertConnection(store.db, {
      id: globalConnectionId('web'),
      serverName: 'web',
      transportType: 'http',
      status: 'reconnecting',
      nextRetryAt: earlier,
      disconnectedAt: earlier,
    });
    await upsertConnection(store.db, {
      id: globalConnectionId('off'),
      serverName: 'off',
      transportType: 'sse',
      status: 'disabled',
    });

    expect(await markAllDisconnected(store.db, now)).toBe(2);

    const byId = new Map((await listConnections(store.db)).map((row) => [row.id, row]));
    expect(byId.get('global:fs')).toMatchObject({
      status: 'disconnected',
      pid: null,
      disconnectedAt: now,
      updatedAt: now,
    });
    expect(byId.get('global:web')).toMatchObject({
      status: 'disconnected',
      nextRetryAt: null,
      disconnectedAt: earlier,
    });
    expect(byId.get('global:off')).toMatchObject({ status: 'disabled', disconnectedAt: null });
    expect(await markAllDisconnected(store.db, now)).toBe(0);
  });

  it('gives each replica sharing the database its own rows, and a replica starting marks only its own', async () => {
    expect(globalConnectionId('fs', 'r_1')).toBe('global@r_1/fs');
    const now = new Date(1_700_000_100_000);
    for (const replica of ['r_1', 'rx1', 'r_2'])
      await upsertConnection(store.db, {
        id: globalConnectionId('fs', replica),
        serverName: 'fs',
        transportType: 'stdio',
        status: 'connected',
        pid: 7,
      });
    // `_` is no wildcard here: r_1's start leaves rx1's row alone.
    expect(await markAllDisconnected(store.db, now, 'r_1')).toBe(1);
    const status = new Map((await listConnections(store.db)).map((row) => [row.id, row.status]));
    expect(status).toEqual(
      new Map([
        ['global@r_1/fs', 'disconnected'],
        ['global@r_2/fs', 'connected'],
        ['global@rx1/fs', 'connected'],
      ]),
    );
  });
});
