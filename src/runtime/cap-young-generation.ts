/**
 * Keep V8's young generation from growing past a size (ADR 015 §5). V8 doubles it (up to
 * 32 MB on 64-bit) while much of what is allocated survives a scavenge — under a burst of
 * calls or of connects — and keeps it grown while the service is busy: that was the largest
 * part of the service's memory above its idle size. Node 20 takes `--max-semi-space-size`
 * only on the command line; the growth factor V8 reads at each growth, so once the young
 * generation reaches `maxBytes` it is set to 1 (no more growth), and back to V8's 2 should a
 * collection shrink it below. Checked after each garbage collection.
 * @module
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Options of {@link capYoungGeneration}; the defaults are V8's own. */
export type CapOptions = {
  /** The young generation's largest size (both semi-spaces). */
  maxBytes?: number;
  /** The young generation's size now. */
  size?: () => number;
  /** Sets V8's growth factor of the young generation. */
  setGrowth?: (factor: number) => void;
  /** Runs `check` after each collection; returns the function that stops it. */
  afterGc?: (check: () => void) => () => void;
};

/** V8's growth factor of the young generation (`--semi-space-growth-factor`). */
const V8_GROWTH = 2;

/** Start capping; returns the function that stops it (and lets the young generation grow again). */
export function capYoungGeneration({
  maxBytes = 16 * 1024 * 1024,
  size = newSpaceSize,
  setGrowth = (factor) => setFlagsFromString(`--semi-space-growth-factor=${factor}`),
  afterGc = observeGc,
}: CapOptions = {}): () => void {
  let capped = false;
  const check = () => {
    const full = size() >= maxBytes;
    if (full === capped) return;
    capped = full;
    setGrowth(full ? 1 : V8_GROWTH);
  };
  check();
  const stop = afterGc(check);
  return () => {
    stop();
    if (capped) setGrowth(V8_GROWTH);
    capped = false;
  };
}

function newSpaceSize(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

function observeGc(check: () => void): () => void {
  const observer = new PerformanceObserver(check);
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
