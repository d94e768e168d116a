import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@libsql/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type OpenDb } from '../../src/storage/create-db.js';
import { upstreamProcessesTable } from '../../src/storage/schema.js';
import { isBusyError, withBusyRetry } from '../../src/storage/with-busy-retry.js';
import { useTempDirs } from '../support/temp-dir.js';

describe('withBusyRetry', () => {
  const tempDir = useTempDirs();
  const opened: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const item of opened.splice(0)) await item.close();
  });

  /** A file database with a 20 ms busy timeout, and a second client holding its write lock. */
  const lockedDb = async (): Promise<{ store: OpenDb; release: () => Promise<void> }> => {
    const url = `file:${join(await tempDir(), 'busy.db')}`;
    const store = await createDb({ url, busyTimeoutMs: 20 });
    const other = createClient({ url });
    opened.push(store, other);
    const tx = await other.transaction('write');
    await tx.execute(
      "insert into upstream_processes (pid, start_time, server_id, spawned_at) values (1, 't', 'other', 0)",
    );
    return { store, release: () => tx.commit() };
  };
  const insert = (store: OpenDb) =>
    store.db
      .insert(upstreamProcessesTable)
      .values({ pid: 2, startTime: 't', serverId: 'mine', spawnedAt: new Date(0) });

  it('gets a real SQLITE_BUSY while another connection holds the write lock', async () => {
    const { store, release } = await lockedDb();
    const error = await withBusyRetry(() => insert(store), { retries: 0 }).catch((e: unknown) => e);
    expect(isBusyError(error)).toBe(true);
    expect(error).toMatchObject({ cause: { code: 'SQLITE_BUSY' } });
    await release();
  });

  it('retries a write that hit SQLITE_BUSY until the lock is released', async () => {
    const { store, release } = await lockedDb();
    const attempts: number[] = [];
    const released = sleep(150).then(release);
    await withBusyRetry(
      async (attempt) => {
        attempts.push(attempt);
        await insert(store);
      },
      { retries: 20, minTimeoutMs: 10, maxTimeoutMs: 50 },
    );
    await released;
    expect(attempts.length).toBeGreaterThan(1);
    const rows = await store.db.select({ pid: upstreamProcessesTable.pid }).from(upstreamProcessesTable);
    expect(rows.map((row) => row.pid).sort()).toEqual([1, 2]);
  });

  it('does not retry a constraint violation: it rejects at once with the original error', async () => {
    const store = await createDb({ url: ':memory:' });
    opened.push(store);
    await insert(store);
    let attempts = 0;
    const error = await withBusyRetry(async () => {
      attempts += 1;
      await insert(store);
    }).catch((e: unknown) => e);
    expect(attempts).toBe(1);
    expect(isBusyError(error)).toBe(false);
    expect(error).toMatchObject({ cause: { code: 'SQLITE_CONSTRAINT' } });
  });

  it('gives up when retries run out, with the busy error', async () => {
    const { store, release } = await lockedDb();
    let attempts = 0;
    const error = await withBusyRetry(
      async () => {
        attempts += 1;
        await insert(store);
      },
      { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 1 },
    ).catch((e: unknown) => e);
    expect(attempts).toBe(3);
    expect(isBusyError(error)).toBe(true);
    await release();
  });

  it('stops retrying when the signal aborts', async () => {
    const { store, release } = await lockedDb();
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const pending = withBusyRetry(() => insert(store), {
      retries: 100,
      minTimeoutMs: 20,
      maxTimeoutMs: 20,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(reason), 60);
    await expect(pending).rejects.toBe(reason);
    await release();
  });

  it('recognises busy and locked codes anywhere in the cause chain', () => {
    expect(isBusyError({ code: 'SQLITE_BUSY' })).toBe(true);
    expect(isBusyError(new Error('wrapped', { cause: { code: 'SQLITE_BUSY_SNAPSHOT' } }))).toBe(true);
    expect(isBusyError(new Error('wrapped', { cause: { code: 'X', rawCode: 262 } }))).toBe(true);
    expect(isBusyError({ code: 'SQLITE_LOCKED' })).toBe(true);
    expect(isBusyError({ code: 'SQLITE_CONSTRAINT', rawCode: 1555 })).toBe(false);
    expect(isBusyError({ code: 'SQLITE_BUSYNESS' })).toBe(false);
    expect(isBusyError('SQLITE_BUSY')).toBe(false);
    expect(isBusyError(null)).toBe(false);
  });
});
