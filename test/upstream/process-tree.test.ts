import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  isAlive,
  killProcessTree,
  listDescendants,
  listGroupMembers,
  readStartTime,
  readStat,
} from '../../src/upstream/process-tree.js';
import { waitFor } from '../support/wait-for.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.pid) trySigkillGroup(child.pid);
});

function trySigkillGroup(pid: number) {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {}
  }
}

/** A detached `sh` (its own process group) running `script`. */
function startGroup(script: string): number {
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  children.push(child);
  if (child.pid === undefined) throw new Error('spawn failed');
  return child.pid;
}

describe('process tree', () => {
  it('reads the start time even when the command name has spaces and parentheses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bnity-comm-'));
    const odd = join(dir, 'a b) (c');
    copyFileSync('/bin/sleep', odd);
    try {
      const child = spawn(odd, ['30'], { stdio: 'ignore' });
      children.push(child);
      const pid = child.pid ?? -1;
      await waitFor(() => readStat(pid)?.ppid === process.pid);
      const stat = readStat(pid);
      expect(stat?.state).toMatch(/^[RSD]$/);
      expect(stat?.startTime).toMatch(/^\d+$/);
      expect(readStartTime(pid)).toBe(stat?.startTime);
      expect(Number(stat?.startTime)).toBeGreaterThanOrEqual(Number(readStartTime(process.pid)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('returns null for a pid that does not exist', () => {
    expect(readStartTime(2 ** 22 + 1)).toBeNull();
    expect(isAlive(2 ** 22 + 1)).toBe(false);
  });

  it('lists descendants and group members, and ends them all', async () => {
    const pid = startGroup('sleep 30 & (sleep 30 & wait) & wait');
    await waitFor(() => listDescendants(pid).length >= 3);
    const tree = listDescendants(pid);
    expect(listGroupMembers(pid).sort()).toEqual([pid, ...tree].sort());
    const started = Date.now();
    await killProcessTree({ pid, graceMs: 2_000 });
    expect(Date.now() - started).toBeLessThan(1_500);
    for (const p of [pid, ...tree]) expect(isAlive(p)).toBe(false);
  });

  it('sends SIGKILL after the grace period to a process that ignores SIGTERM', async () => {
    const pid = startGroup(`trap '' TERM; sleep 30 & wait; sleep 30`);
    await waitFor(() => listDescendants(pid).length >= 1);
    const tree = listDescendants(pid);
    const started = Date.now();
    await killProcessTree({ pid, graceMs: 400 });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(400);
    expect(took).toBeLessThan(2_000);
    for (const p of [pid, ...tree]) expect(isAlive(p)).toBe(false);
  });

  it('ends a stopped process too', async () => {
    const pid = startGroup('sleep 30');
    await waitFor(() => readStat(pid) !== null);
    process.kill(pid, 'SIGSTOP');
    await waitFor(() => readStat(pid)?.state === 'T');
    await killProcessTree({ pid, graceMs: 2_000 });
    expect(isAlive(pid)).toBe(false);
  });

  it('leaves a pid alone when its start time is not the recorded one', async () => {
    const pid = startGroup('sleep 30');
    await waitFor(() => readStat(pid) !== null);
    await killProcessTree({ pid, graceMs: 100, startTime: '1' });
    expect(isAlive(pid)).toBe(true);
  });
});
