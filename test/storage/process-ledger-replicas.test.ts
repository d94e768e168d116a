/**
 * The process ledger on a database replicas share (ADR 041): each replica records, lists,
 * reaps and forgets only its own children (and the rows written before replicas had ids).
 * On PostgreSQL, two replicas on one database: replica A's start-up reaping leaves B's live
 * child and its row alone; B's reaping ends it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenDb } from '../../src/storage/create-db.js';
import { createProcessLedger } from '../../src/storage/process-ledger.js';
import { upstreamProcessesTable } from '../../src/storage/schema.js';
import { isAlive, readStartTime } from '../../src/upstream/process-tree.js';
import { reapLeftovers } from '../../src/upstream/reap-orphans.js';
import { testLogger } from '../support/fixtures.js';
import { DIALECTS, openSharedPostgres, openTestDb } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const log = testLogger();
const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A child as a crashed replica would leave it: its own session and group. */
function startChild(): { child: ChildProcess; pid: number; startTime: string } {
  const child = spawn('setsid', ['sleep', '30'], { stdio: 'ignore' });
  cleanup.push(() => {
    try {
      process.kill(child.pid ?? 0, 'SIGKILL');
    } catch {}
  });
  const pid = child.pid ?? -1;
  const startTime = readStartTime(pid);
  if (startTime === null) throw new Error('no start time');
  return { child, pid, startTime };
}

describe.each(DIALECTS)('process ledger of a replica (%s)', (dialect) => {
  it("lists and forgets only its own rows and the legacy ones, never another replica's", async () => {
    const store = await openTestDb(dialect);
    cleanup.push(() => store.close());
    const a = createProcessLedger(store.db, { replica: 'a' });
    const b = createProcessLedger(store.db, { replica: 'b' });
    const legacy = createProcessLedger(store.db);
    // The same pid on two hosts is two rows.
    await a.recordSpawn({ serverId: 'fs', pid: 100, startTime: '1' });
    await b.recordSpawn({ serverId: 'fs', pid: 100, startTime: '2' });
    await b.recordSpawn({ serverId: 'git', pid: 200, startTime: '3' });
    await legacy.recordSpawn({ serverId: 'old', pid: 300, startTime: '4' });
    expect(await a.list()).toEqual([
      { pid: 100, startTime: '1', serverId: 'fs' },
      { pid: 300, startTime: '4', serverId: 'old' },
    ]);
    await a.recordExit(100);
    await a.forget(200); // b's pid: not a's to forget
    expect(await b.list()).toEqual([
      { pid: 100, startTime: '2', serverId: 'fs' },
      { pid: 200, startTime: '3', serverId: 'git' },
      { pid: 300, startTime: '4', serverId: 'old' },
    ]);
    const rows = await store.db.select().from(upstreamProcessesTable);
    expect(rows.map((r) => `${r.replica}:${r.pid}`).sort()).toEqual([':300', 'b:100', 'b:200']);
  });
});

describe('two replicas on one PostgreSQL database', () => {
  it("A's start-up reaping leaves B's live child and its row alone; B's own reaping ends it", async () => {
    const shared = await openSharedPostgres(2);
    cleanup.push(() => shared.close());
    const [storeA, storeB] = shared.stores as [OpenDb, OpenDb];
    const ledgerA = createProcessLedger(storeA.db, { replica: 'replica-a' });
    const ledgerB = createProcessLedger(storeB.db, { replica: 'replica-b' });
    const ofB = startChild();
    await ledgerB.recordSpawn({ serverId: 'tiny', pid: ofB.pid, startTime: ofB.startTime });
    const ofA = startChild();
    await ledgerA.recordSpawn({ serverId: 'tiny', pid: ofA.pid, startTime: ofA.startTime });

    // Replica A restarts after a crash: it reaps what it left, only that.
    await reapLeftovers(ledgerA, 1_000, log);
    await waitFor(() => !isAlive(ofA.pid), { what: "A's own orphan ended" });
    expect(isAlive(ofB.pid)).toBe(true);
    expect(await ledgerA.list()).toEqual([]);
    expect(await ledgerB.list()).toEqual([{ pid: ofB.pid, startTime: ofB.startTime, serverId: 'tiny' }]);

    await reapLeftovers(ledgerB, 1_000, log);
    await waitFor(() => !isAlive(ofB.pid), { what: "B's orphan ended by B" });
    expect(await storeA.db.select().from(upstreamProcessesTable)).toEqual([]);
  });
});
