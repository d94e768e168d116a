/**
 * Ending stdio children that a crashed previous run left behind (S6), from the pids and
 * start times its process ledger recorded.
 * @module
 */
import type { Logger } from 'pino';
import { killProcesses, killProcessTree, listGroupMembers, readStartTime } from './process-tree.js';

/** A child recorded by a previous run. */
export type OrphanEntry = { readonly pid: number; readonly startTime: string; readonly serverId: string };

/** What was done about one entry. */
export type ReapResult = { readonly pid: number; readonly killed: boolean; readonly reason: string };

/**
 * For each entry: if the pid still runs with the recorded start time, end its tree and group;
 * if it is gone, end what is left of its process group (Linux never reuses a pid that is still
 * a pgid) that started no earlier than it; if the pid now names another process, leave it.
 */
export async function reapOrphans(
  entries: readonly OrphanEntry[],
  { graceMs, log }: { graceMs: number; log: Logger },
): Promise<ReapResult[]> {
  const results = await Promise.all(entries.map((entry) => reapOne(entry, graceMs)));
  for (const [i, result] of results.entries()) {
    const fields = { server: entries[i]?.serverId, pid: result.pid, reason: result.reason };
    if (result.killed) log.info(fields, 'orphaned upstream process ended');
    else log.debug(fields, 'orphaned upstream process not touched');
  }
  return results;
}

/** The ledger of the children a run recorded, as the service's database keeps it. */
export type OrphanLedger = { list(): Promise<readonly OrphanEntry[]>; forget(pid: number): Promise<void> };

/** End the stdio children a crashed run left behind (their pids are in the ledger), then forget them. */
export async function reapLeftovers(ledger: OrphanLedger, graceMs: number, log: Logger): Promise<void> {
  const orphans = await ledger.list();
  if (orphans.length === 0) return;
  const results = await reapOrphans(orphans, { graceMs, log });
  for (const entry of orphans) await ledger.forget(entry.pid);
  log.warn({ results }, 'ended child processes left by a previous run');
}

async function reapOne({ pid, startTime }: OrphanEntry, graceMs: number): Promise<ReapResult> {
  const current = readStartTime(pid);
  if (current === startTime) {
    await killProcessTree({ pid, graceMs, startTime });
    return { pid, killed: true, reason: 'still running: process tree and group ended' };
  }
  if (current !== null) return { pid, killed: false, reason: 'pid now belongs to another process' };
  const members = listGroupMembers(pid).filter((member) => startedNoEarlier(member, startTime));
  if (members.length === 0) return { pid, killed: false, reason: 'gone, nothing left in its process group' };
  await killProcesses({ pids: members, graceMs });
  return { pid, killed: true, reason: `gone: ${members.length} process(es) of its group ended` };
}

function startedNoEarlier(pid: number, startTime: string): boolean {
  const current = readStartTime(pid);
  return current !== null && /^\d+$/.test(startTime) && BigInt(current) >= BigInt(startTime);
}
