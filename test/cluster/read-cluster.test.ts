/**
 * The fleet view's reading (ADR 041) on both databases: alive, stale and stopped by the
 * heartbeat's age and a clean stop; only an alive replica leads; each replica's servers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readCluster, startHeartbeat } from '../../src/cluster/index.js';
import type { OpenDb } from '../../src/storage/create-db.js';
import {
  beatReplica,
  claimLeader,
  deleteReplicaServers,
  listReplicaServers,
  markReplicaStopped,
  pruneGoneReplicas,
  upsertReplicaServer,
} from '../../src/storage/replica-repo.js';
import { testLogger } from '../support/fixtures.js';
import { DIALECTS, openTestDb } from '../support/test-db.js';

const log = testLogger();
let store: OpenDb | undefined;
afterEach(async () => {
  await store?.close();
});

describe.each(DIALECTS)('readCluster (%s)', (dialect) => {
  it('says alive, stale or stopped, leads only if alive, and lists each replica its servers', async () => {
    store = await openTestDb(dialect);
    const db = store.db;
    let clock = 1_000_000;
    const beat = (id: string, leader = false) =>
      startHeartbeat({
        db,
        id,
        version: '1.2.3',
        address: `http://${id}:7777`,
        everyMs: () => 60_000,
        leader: () => leader,
        log,
        now: () => clock,
      });
    const a = await beat('a', true);
    await claimLeader(db, 'a');
    const b = await beat('b');
    const c = await beat('c');
    const server = (name: string, state: string, pid: number | null, lastError: string | null = null) =>
      upsertReplicaServer(db, { replica: 'b', server: name, state, attempt: 0, lastError, pid, toolCount: 3 });
    await server('fs', 'connected', 42);
    await server('git', 'reconnecting', null, 'boom');
    await server('fs', 'connected', 43);
    await c.stop();
    clock += 20_000;
    await b.beat();
    const view = await readCluster({ db, self: 'b', database: dialect, staleAfterMs: 15_000, now: () => clock });
    expect(view.replica).toBe('b');
    // a leads by its row, but is stale: nobody leads that the view can vouch for.
    expect(view.leader).toBeNull();
    expect(view.replicas.map((r) => [r.id, r.status, r.leader, r.self, r.heartbeatAgeMs])).toEqual([
      ['a', 'stale', false, false, 20_000],
      ['b', 'alive', false, true, 0],
      ['c', 'stopped', false, false, 20_000],
    ]);
    expect(view.replicas[1]).toMatchObject({
      version: '1.2.3',
      address: 'http://b:7777',
      startedAt: new Date(1_000_000).toISOString(),
    });
    expect(view.replicas[1]?.servers.map((s) => [s.name, s.state, s.pid, s.lastError])).toEqual([
      ['fs', 'connected', 43, null],
      ['git', 'reconnecting', null, 'boom'],
    ]);
    await claimLeader(db, 'b');
    await deleteReplicaServers(db, 'b', 'git');
    const later = await readCluster({ db, self: 'b', database: dialect, staleAfterMs: 15_000, now: () => clock });
    expect(later.leader).toBe('b');
    expect(later.replicas.map((r) => r.leader)).toEqual([false, true, false]);
    expect(later.replicas[1]?.servers.map((s) => s.name)).toEqual(['fs']);
    await a.stop();
    await b.stop();
  });
});

describe.each(DIALECTS)('replicas gone for good (%s)', (dialect) => {
  it('leave the fleet view after a week (silent or stopped), with their servers; the others stay', async () => {
    store = await openTestDb(dialect);
    const db = store.db;
    const DAY = 24 * 60 * 60 * 1000;
    const now = 100 * DAY;
    const beatAt = (id: string, at: number) =>
      beatReplica(db, { id, version: '1.0.0', address: null, at, leader: false }, true);
    await beatAt('renamed-pod', now - 8 * DAY);
    await beatAt('stopped-long-ago', now - 9 * DAY);
    await markReplicaStopped(db, 'stopped-long-ago', now - 8 * DAY);
    await beatAt('stopped-yesterday', now - 2 * DAY);
    await markReplicaStopped(db, 'stopped-yesterday', now - DAY);
    await beatAt('alive', now);
    await upsertReplicaServer(db, {
      replica: 'renamed-pod',
      server: 'fs',
      state: 'connected',
      attempt: 0,
      lastError: null,
      pid: 7,
      toolCount: 1,
    });
    expect(await pruneGoneReplicas(db, now, 7 * DAY)).toBe(2);
    const view = await readCluster({ db, self: 'alive', database: dialect, staleAfterMs: 15_000, now: () => now });
    expect(view.replicas.map((r) => r.id)).toEqual(['alive', 'stopped-yesterday']);
    expect(await listReplicaServers(db)).toEqual([]);
  });
});
