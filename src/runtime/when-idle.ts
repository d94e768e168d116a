/**
 * Work that can wait for a quiet moment (ADR 015 §10): the control API's app and the MCP
 * 2026-07-28 side are built unasked once start-up is over, but not while agents keep the
 * service busy, where their loading (about 100 ms of CPU) would land in the middle of calls.
 * @module
 */
import { performance } from 'node:perf_hooks';

/** Options of {@link whenIdle}. */
export type WhenIdleOptions = {
  /** Not before this long from now. */
  afterMs?: number;
  /** How long the loop must have been nearly idle. */
  quietMs?: number;
  /** How often the loop's utilization is sampled. */
  everyMs?: number;
  /** Utilization below this counts as idle. */
  idleBelow?: number;
  /** The event loop's utilization since the previous call (0..1). */
  utilization?: () => number;
};

/** The event loop's utilization since the previous call of the returned function. */
export function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    return utilization;
  };
}

/** Run `work` once, after `afterMs`, as soon as the loop has been idle for `quietMs`; returns the cancel. */
export function whenIdle(
  work: () => void,
  {
    afterMs = 2_000,
    quietMs = 500,
    everyMs = 250,
    idleBelow = 0.05,
    utilization = loopUtilization(),
  }: WhenIdleOptions = {},
): () => void {
  let quiet = 0;
  let poll: NodeJS.Timeout | null = null;
  const delay = setTimeout(() => {
    utilization();
    poll = setInterval(() => {
      quiet = utilization() < idleBelow ? quiet + everyMs : 0;
      if (quiet < quietMs) return;
      if (poll) clearInterval(poll);
      work();
    }, everyMs);
    poll.unref();
  }, afterMs);
  delay.unref();
  return () => {
    clearTimeout(delay);
    if (poll) clearInterval(poll);
  };
}
