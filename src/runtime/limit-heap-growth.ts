/**
 * Let the old generation grow by its live size between full collections, not by up to three
 * times it (issue 20). After a full collection V8 sets the next one's threshold at the live
 * size times a factor it derives from its own speed, commonly near 3: a service whose
 * start-up ended with a full collection of about 23 MB live (the idle trim, or a collection
 * V8 makes at the end of a burst) then carried up to 70 MB of garbage through the next burst
 * before collecting again, and its RSS after 6,400 calls was 160 MB instead of 115. A factor
 * of 2 collects that garbage at about 50 MB. It was 1.5 at first; under sustained calls that
 * made a full collection about every second (about 10 KB a call reaches the old generation),
 * its concurrent marking 5–8 % of the service's CPU a call; at 2, half as many, for about
 * 8 MB more RSS (docs/performance.md, issue 20, fourth round). Set before start-up, by
 * `bin/bnity.js` for `serve` before the bundle loads and again by `tuneProcess` (V8 reads it
 * whenever it computes a threshold). It used to be set once start-up was over; when V8 made
 * its one full collection of start-up before that, the next threshold came at its own factor
 * and the old generation reached about 50 MB before its next collection: 15 MB more RSS, in
 * one harness round of eleven (thirteenth round). Start-up makes no more full collections
 * with it set early.
 * @module
 */
import { setFlagsFromString } from 'node:v8';

/** How much the old generation may grow past its live size before the next full collection, in per cent. */
export const SERVICE_HEAP_GROWING_PERCENT = 100;

/** Set V8's heap growing factor for this process to `1 + percent / 100`. */
export function limitHeapGrowth(percent = SERVICE_HEAP_GROWING_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** Give V8 back its own factor (`bnity serve` limits the growth before its config is read; `runtime.tuneProcess: false` undoes it). */
export function restoreHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=0');
}
