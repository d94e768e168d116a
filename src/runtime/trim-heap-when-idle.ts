/**
 * Give memory back after a burst (SPEC X8, ADR 006). V8 grows its young generation while
 * many upstreams connect or agents are busy, and keeps the garbage of that time in the old
 * generation until it next needs room; a quiet service keeps the memory of its busiest
 * moment. Once the event loop has been nearly idle for `quietMs` after busier times, a full
 * collection frees and compacts the old generation and drops the code of functions not
 * running ({@link collectDeeply}), and a young one `quietMs` later lets V8 shrink the
 * young generation (it does when it has seen little allocation over its last 5 s). Once
 * per quiet spell, so a busy service never pays.
 * @module
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { collectDeeply } from './collect-deeply.js';
import { loopUtilization } from './when-idle.js';

/** Options of {@link trimHeapWhenIdle}; the defaults suit the service. */
export type TrimOptions = {
  /** How long the loop must stay idle before a collection (V8 judges allocation over 5 s). */
  quietMs?: number;
  /** How often the loop's utilization is sampled. */
  everyMs?: number;
  /** Utilization below this counts as idle. */
  idleBelow?: number;
  /** The collections to run; default V8's own, exposed at run time. */
  collect?: { full(): void; young(): void };
  /** The event loop's utilization since the previous call (0..1). */
  utilization?: () => number;
  /** Run `tick` every `ms` until the returned function is called. */
  every?: (tick: () => void, ms: number) => () => void;
};

/** Start watching; returns the function that stops it. */
export function trimHeapWhenIdle({
  quietMs = 6_000,
  everyMs = 1_000,
  idleBelow = 0.05,
  collect = exposedGc(),
  utilization = loopUtilization(),
  every = (tick, ms) => {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
}: TrimOptions = {}): () => void {
  // Start-up itself was the first burst.
  let busySinceTrim = true;
  let quiet = 0;
  // After the full collection, the young one waits for a whole quiet spell more: V8 shrinks
  // the young generation only when it has seen little allocation over its last 5 s.
  let youngAt: number | null = null;
  let collected = false;
  return every(() => {
    const busy = utilization() >= idleBelow;
    // The window of a collection of ours is busy with that collection: it says nothing.
    if (busy && !collected) {
      busySinceTrim = true;
      quiet = 0;
      youngAt = null;
      return;
    }
    collected = false;
    quiet += everyMs;
    if (youngAt !== null && quiet >= youngAt) {
      youngAt = null;
      collect.young();
      collected = true;
      return;
    }
    if (!busySinceTrim || quiet < quietMs) return;
    busySinceTrim = false;
    collect.full();
    collected = true;
    youngAt = quiet + quietMs;
  }, everyMs);
}

/** V8's collections, as `--expose-gc` would give them, without that flag on the command line. */
function exposedGc(): { full(): void; young(): void } {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options?: { type: 'minor' }) => void;
  return { full: () => collectDeeply(() => gc()), young: () => gc({ type: 'minor' }) };
}
