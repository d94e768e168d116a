/**
 * The idle trim's full collection made as thorough as V8's own when memory is short
 * (ADR 015 §9): every page of the old generation compacted, and the code of every function
 * not running flushed, to be compiled again at its next call. A collection asked for with
 * `gc()` does neither — it sweeps fragmented pages in place and, being forced, leaves the
 * ages V8 flushes code by unchanged — so the flags that make it so are set for that one
 * collection and put back at once: the service never works with them.
 * @module
 */
import { setFlagsFromString } from 'node:v8';

/** Each flag as it is during the collection, and V8's default it goes back to. */
const DURING: ReadonlyArray<readonly [name: string, during: string, after: string]> = [
  // Evacuate every page, not only the most fragmented: the old generation's pages then
  // hold what is live and no more.
  ['compact-on-every-full-gc', '--compact-on-every-full-gc', '--no-compact-on-every-full-gc'],
  // Old after no collection: the bytecode of any function not on the stack is dropped.
  // V8 keeps that of async functions and generators whatever the age.
  ['bytecode-old-age', '--bytecode-old-age=0', '--bytecode-old-age=5'],
  // Without it, a function with baseline (Sparkplug) code keeps its bytecode too.
  ['flush-baseline-code', '--flush-baseline-code', '--no-flush-baseline-code'],
];

/** Options of {@link collectDeeply}. */
export type DeepOptions = {
  /** Sets a V8 flag. */
  setFlag?: (flag: string) => void;
  /** The command line's options: a flag named there is the operator's, and left alone. */
  execArgv?: readonly string[];
};

/** Run `gc` (a full collection) with the flags above, then put them back. */
export function collectDeeply(
  gc: () => void,
  { setFlag = setFlagsFromString, execArgv = process.execArgv }: DeepOptions = {},
): void {
  const given = execArgv.join(' ').replaceAll('_', '-');
  const ours = DURING.filter(([name]) => !given.includes(name));
  for (const [, during] of ours) setFlag(during);
  try {
    gc();
  } finally {
    for (const [, , after] of ours) setFlag(after);
  }
}
