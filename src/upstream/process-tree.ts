/**
 * Process trees and groups on Linux, read from /proc (S6): how a stdio child and everything
 * it started are found and ended, so that no process outlives its server.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { liveGroups } from './live-groups.js';
import {
  isLiving,
  listDescendants,
  listGroupMembers,
  listProcesses,
  type ProcStat,
  readStartTime,
  readStat,
} from './proc-stat.js';

export {
  isAlive,
  listDescendants,
  listGroupMembers,
  listProcesses,
  type ProcStat,
  readStartTime,
  readStat,
} from './proc-stat.js';

/** Options of {@link killProcesses}. */
export type KillProcessesOptions = {
  /** Processes to end, with their descendants. */
  readonly pids: readonly number[];
  /** A process group to end as well (its members are snapshotted and signalled). */
  readonly pgid?: number | null;
  /** How long SIGTERM is given before SIGKILL. */
  readonly graceMs: number;
  readonly pollMs?: number;
  /** Upper bound on the wait after SIGKILL (a process in uninterruptible sleep). */
  readonly killWaitMs?: number;
  /** Processes found earlier ({@link treeOf}), with their start times: ended too, if still the same. */
  readonly known?: ReadonlyMap<number, string>;
};

/**
 * SIGTERM (plus SIGCONT, so stopped processes can act on it) to the processes, their
 * descendants and the group; SIGKILL to whatever is left after `graceMs`. Resolves when
 * none of them is alive, or after `killWaitMs` more at worst.
 */
export async function killProcesses({
  pids,
  pgid = null,
  graceMs,
  pollMs = 50,
  killWaitMs = 2_000,
  known,
}: KillProcessesOptions): Promise<void> {
  // pid → start time: a pid that now shows another start time was reused, and is left alone.
  const targets = new Map<number, string>(known ?? []);
  const collect = () => {
    const processes = listProcesses();
    const byPid = new Map(processes.map((p) => [p.pid, p]));
    const roots = [...pids, ...targets.keys()].filter((pid) => isTarget(pid, targets, byPid));
    const found = new Set(roots);
    for (const pid of roots) for (const d of listDescendants(pid, processes)) found.add(d);
    if (pgid !== null) for (const m of listGroupMembers(pgid, processes)) found.add(m);
    for (const pid of found) {
      const stat = byPid.get(pid);
      if (stat && !targets.has(pid)) targets.set(pid, stat.startTime);
    }
  };
  const signalAll = (signals: readonly NodeJS.Signals[]) => {
    for (const signal of signals) {
      if (pgid !== null) trySignal(-pgid, signal);
      for (const [pid, startTime] of targets) if (readStartTime(pid) === startTime) trySignal(pid, signal);
    }
  };
  const living = () =>
    [...targets].filter(([pid, startTime]) => {
      const stat = readStat(pid);
      return isLiving(stat) && stat.startTime === startTime;
    });

  collect();
  signalAll(['SIGTERM', 'SIGCONT']);
  const termDeadline = Date.now() + graceMs;
  while (living().length > 0 && Date.now() < termDeadline) {
    await sleep(pollMs);
    const before = targets.size;
    collect();
    // Children forked during the grace period get their SIGTERM too.
    if (targets.size > before) signalAll(['SIGTERM', 'SIGCONT']);
  }
  const killDeadline = Date.now() + killWaitMs;
  for (;;) {
    collect();
    if (living().length === 0 || Date.now() >= killDeadline) return;
    signalAll(['SIGKILL']);
    await sleep(pollMs);
  }
}

/**
 * End `pid`, its descendants and its process group (a setsid'd child leads one). With
 * `startTime`, a pid that now belongs to another process is left alone, and so is its group.
 */
export async function killProcessTree({
  pid,
  graceMs,
  startTime,
  known,
}: {
  pid: number;
  graceMs: number;
  startTime?: string | undefined;
  /** Its descendants found earlier ({@link treeOf}): ended too, though the child's end orphaned them. */
  known?: ReadonlyMap<number, string> | undefined;
}): Promise<void> {
  const current = readStartTime(pid);
  // A reused pid means our process and its group are both gone (Linux does not reuse a live pgid).
  if (startTime !== undefined && current !== null && current !== startTime) return;
  await killProcesses({ pids: current === null ? [] : [pid], pgid: pid, graceMs, ...(known ? { known } : {}) });
}

/** The descendants of `pid` now, with their start times (to end them once `pid` is gone). */
export function treeOf(pid: number): Map<number, string> {
  const processes = listProcesses();
  const byPid = new Map(processes.map((p) => [p.pid, p.startTime]));
  const tree = new Map<number, string>();
  for (const child of listDescendants(pid, processes)) {
    const startTime = byPid.get(child);
    if (startTime !== undefined) tree.set(child, startTime);
  }
  return tree;
}

/**
 * SIGKILL, at once and synchronously, every process below `pid` and the process groups they
 * lead (a stdio child is one, through `setsid`, with whatever it started), and the members of
 * `groups` (those of stdio children that have exited, leaving orphans): for a process
 * about to exit without its drain, so that it leaves no child behind (S6). Returns how many
 * processes were signalled.
 */
export function killAllBelowNow(pid: number, groups: ReadonlySet<number> = liveGroups()): number {
  const processes = listProcesses();
  const below = new Set(listDescendants(pid, processes));
  for (const stat of processes)
    if ((below.has(stat.pgrp) || groups.has(stat.pgrp)) && stat.pid !== pid) below.add(stat.pid);
  for (const target of below) trySignal(target, 'SIGKILL');
  return below.size;
}

function isTarget(pid: number, targets: ReadonlyMap<number, string>, byPid: ReadonlyMap<number, ProcStat>): boolean {
  const stat = byPid.get(pid);
  if (!stat) return false;
  const recorded = targets.get(pid);
  return recorded === undefined || recorded === stat.startTime;
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone; EPERM: not ours to end.
  }
}
