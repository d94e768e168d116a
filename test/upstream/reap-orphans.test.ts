import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, listDescendants, listGroupMembers, readStartTime } from '../../src/upstream/process-tree.js';
import { reapOrphans } from '../../src/upstream/reap-orphans.js';
import { testLogger } from '../support/fixtures.js';
import { waitFor } from '../support/wait-for.js';

const log = testLogger();
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    for (const target of [-(child.pid ?? 0), child.pid ?? 0]) {
      try {
        if (target !== 0) process.kill(target, 'SIGKILL');
      } catch {}
    }
  }
});

/** A process started like a crashed run's child: its own session and group (setsid). */
function startDetached(script: string) {
  const child = spawn('setsid', ['sh', '-c', script], { stdio: 'ignore' });
  started.push(child);
  const pid = child.pid ?? -1;
  const startTime = readStartTime(pid);
  if (startTime === null) throw new Error('no start time');
  return { pid, startTime };
}

describe('reapOrphans', () => {
  it('ends a recorded process and its whole group when its start time matches', async () => {
    const { pid, startTime } = startDetached('sleep 30 & sleep 30 & wait');
    await waitFor(() => listDescendants(pid).length >= 2);
    const members = listGroupMembers(pid);
    expect(members.length).toBeGreaterThanOrEqual(3);
    const results = await reapOrphans([{ pid, startTime, serverId: 'old' }], { graceMs: 1_000, log });
    expect(results).toEqual([{ pid, killed: true, reason: expect.any(String) }]);
    for (const p of members) expect(isAlive(p)).toBe(false);
  });

  it('ends what is left of the group when the recorded process is gone', async () => {
    const { pid, startTime } = startDetached('sleep 30 & sleep 0.2');
    await waitFor(() => !isAlive(pid));
    const leftovers = listGroupMembers(pid).filter(isAlive);
    expect(leftovers.length).toBe(1);
    const [result] = await reapOrphans([{ pid, startTime, serverId: 'old' }], { graceMs: 1_000, log });
    expect(result?.killed).toBe(true);
    for (const p of leftovers) expect(isAlive(p)).toBe(false);
  });

  it('leaves alone a live process whose start time differs from the record', async () => {
    const { pid, startTime } = startDetached('sleep 30');
    const other = String(BigInt(startTime) - 1n);
    const results = await reapOrphans([{ pid, startTime: other, serverId: 'old' }], { graceMs: 200, log });
    expect(results).toEqual([{ pid, killed: false, reason: 'pid now belongs to another process' }]);
    expect(isAlive(pid)).toBe(true);
  });
});
