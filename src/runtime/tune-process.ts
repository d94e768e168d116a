/**
 * The V8 tuning of a long-running service, owned by the process that runs one (issue 20):
 * `bnity serve` turns it on, and its config can turn it off (`runtime.tuneProcess`); a
 * service started in-process (the tests, `bnity mcp serve --stdio`) leaves the process as
 * Node made it. Six process-wide settings, each of which says why in its own file: the
 * young generation capped, the shapes functions meet recorded from their first call and
 * the old generation collected before it grows far past what is live, all three before the
 * connect burst; and once start-up is over the call path optimized sooner, memory given
 * back after each burst, and the young generation scavenged on one thread.
 * @module
 */
import { capYoungGeneration } from './cap-young-generation.js';
import { limitHeapGrowth } from './limit-heap-growth.js';
import { rememberFirstShapes } from './remember-first-shapes.js';
import { scavengeSerially } from './scavenge-serially.js';
import { tierUpSooner } from './tier-up-sooner.js';
import { trimHeapWhenIdle } from './trim-heap-when-idle.js';

/** The tuning of a starting service; what {@link tuneProcess} returns. */
export type ProcessTuning = {
  /** Start-up is over: what runs from now on runs again, and the heap is trimmed when idle. */
  started(): void;
  /** Stop what watches (the cap, the idle trim) and let the young generation grow again. */
  stop(): void;
};

/** The settings it makes, for a dependency-free test; default V8's own. */
export type TuneDeps = {
  cap?: () => () => void;
  trim?: () => () => void;
  tierUp?: () => void;
  limitGrowth?: () => void;
  serialScavenge?: () => void;
  firstShapes?: () => void;
};

/** Tune this process for a long-running service: the young generation capped now, the rest at {@link ProcessTuning.started}. */
export function tuneProcess({
  cap = capYoungGeneration,
  trim = trimHeapWhenIdle,
  tierUp = tierUpSooner,
  limitGrowth = limitHeapGrowth,
  serialScavenge = scavengeSerially,
  firstShapes = rememberFirstShapes,
}: TuneDeps = {}): ProcessTuning {
  // Before the connect burst: V8 would grow its young generation to 32 MB and keep it,
  const stops = [cap()];
  // the first exchanges with upstreams and agents would leave no trace in the feedback,
  firstShapes();
  // and a full collection made during start-up would set the next one's threshold at V8's
  // own factor, which lets the first burst's garbage reach about 50 MB before it is collected.
  limitGrowth();
  let started = false;
  return {
    started() {
      if (started) return;
      started = true;
      // After start-up and every later burst, the memory goes back once things are quiet.
      stops.push(trim());
      // Start-up is over: what runs from now on runs again, and is worth optimizing soon,
      tierUp();
      // and its young generation is scavenged by the main thread alone (less CPU than helper threads).
      serialScavenge();
    },
    stop() {
      for (const stop of stops.splice(0).reverse()) stop();
    },
  };
}
