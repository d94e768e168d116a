/**
 * The silence watch of a relayed request (X8; ADR 014 §2, ADR 022): each time the request
 * has heard nothing (no answer, no progress) for `afterMs`, its connection is checked with
 * a short ping, so a stalled server's calls fail within seconds, not at the next health
 * ping. Unless the silence is explained and the ping would only queue behind work: the
 * connection answered another request meanwhile, the service's own event loop was
 * saturated, or the stdio child is at work (runnable or using CPU: working through a
 * backlog, not stopped).
 * @module
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { UpstreamSession } from '../../upstream/types.js';

/** Event-loop utilization over a silence interval above which the service is the bottleneck. */
const LOOP_TOO_BUSY = 0.9;

/** How long a stdio child's CPU time is watched before its connection is checked. */
const WORKING_PROBE_MS = 100;

/** A request's watch: `heard()` on each sign of life of its own, `stop()` once it has ended. */
export type SilenceWatch = { heard(): void; stop(): void };

/**
 * Watch a request to `upstream`; `quietFor` says how long its connection has answered
 * nothing (see `CallAdmission.quietFor`).
 */
export function watchSilence(upstream: UpstreamSession, afterMs: number, quietFor: () => number): SilenceWatch {
  let heard = false;
  let stopped = false;
  let loop = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const busy = performance.eventLoopUtilization(loop).utilization;
    loop = performance.eventLoopUtilization();
    // A service too busy to read its own pipes cannot tell a silent upstream from its own
    // backlog: the health ping stays to catch a dead one.
    if (!heard && quietFor() >= afterMs && busy < LOOP_TOO_BUSY) checkUnlessWorking(upstream, () => stopped);
    heard = false;
  }, afterMs);
  timer.unref();
  return {
    heard: () => {
      heard = true;
    },
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/**
 * Check `upstream`'s connection, unless it is a stdio child at work: runnable now, or using
 * CPU over the next moment. A server parsing big requests cannot answer a ping queued
 * behind them in its pipe, and is busy, not stalled; a stopped or hung child is neither.
 * Where the child cannot be read (not Linux; a wrapper such as `npx` whose own process is
 * idle while its child works) the check runs.
 */
function checkUnlessWorking(upstream: UpstreamSession, ended: () => boolean): void {
  const before = upstream.pid === null ? null : readChild(upstream.pid);
  if (before === null) {
    upstream.checkLiveness();
    return;
  }
  if (before.state === 'R') return;
  setTimeout(() => {
    if (ended()) return;
    const after = readChild(upstream.pid as number);
    if (after === null || (after.state !== 'R' && after.cpuTicks <= before.cpuTicks)) upstream.checkLiveness();
  }, WORKING_PROBE_MS).unref();
}

/** Process `pid`'s state letter and CPU time (user + system, in clock ticks); null when unreadable. */
function readChild(pid: number): { state: string; cpuTicks: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name may hold spaces and parentheses: fields resume after the last ')',
  // with the state (field 3) first; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuTicks = Number(fields[11]) + Number(fields[12]);
  return fields[0] && Number.isFinite(cpuTicks) ? { state: fields[0], cpuTicks } : null;
}
