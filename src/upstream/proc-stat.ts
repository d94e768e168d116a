/**
 * Reading Linux /proc: one process's stat line, and the tree and group it belongs to.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat this module needs. */
export type ProcStat = {
  readonly pid: number;
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  /** Field 22: clock ticks since boot; with the pid it names one process for good. */
  readonly startTime: string;
};

/** Parse /proc/<pid>/stat; null when the process does not exist (or cannot be read). */
export function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // comm (field 2) may hold spaces and parentheses: the fields resume after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, ppid, pgrp] = fields;
  const startTime = fields[19];
  if (state === undefined || ppid === undefined || pgrp === undefined || startTime === undefined) return null;
  return { pid, state, ppid: Number(ppid), pgrp: Number(pgrp), startTime };
}

/** Start time (field 22 of /proc/<pid>/stat) of a process, or null if it does not exist. */
export function readStartTime(pid: number): string | null {
  return readStat(pid)?.startTime ?? null;
}

/** True while the process exists and is not a zombie (Z) or dead (X). */
export function isAlive(pid: number): boolean {
  return isLiving(readStat(pid));
}

/** True for a stat of a process that is neither a zombie nor dead. */
export function isLiving(stat: ProcStat | null): stat is ProcStat {
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
}

/** Every process currently listed in /proc. */
export function listProcesses(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) stats.push(stat);
  }
  return stats;
}

/** Pids of all descendants of `pid` (children, grandchildren, …), not `pid` itself. */
export function listDescendants(pid: number, processes: readonly ProcStat[] = listProcesses()): number[] {
  const children = new Map<number, number[]>();
  for (const p of processes) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p.pid);
    else children.set(p.ppid, [p.pid]);
  }
  const found = new Set<number>();
  const queue = [pid];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const child of children.get(next) ?? []) {
      if (child === pid || found.has(child)) continue;
      found.add(child);
      queue.push(child);
    }
  }
  return [...found];
}

/** Pids of the members of process group `pgid`. */
export function listGroupMembers(pgid: number, processes: readonly ProcStat[] = listProcesses()): number[] {
  return processes.filter((p) => p.pgrp === pgid).map((p) => p.pid);
}
