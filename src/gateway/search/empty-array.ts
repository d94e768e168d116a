/**
 * An empty array of strings or objects for an index's state (issue 24, ADR 038).
 * @module
 */

/**
 * An empty array that V8 already files as holding any value. `[]` starts as an array of small
 * integers, and the first string stored changes its hidden class: an index's arrays of names
 * and words did that once per build, after the code storing into them had been compiled for the
 * changed class, which threw that code away (a "wrong map" deoptimization in the second build
 * of a process, while it should be running compiled). An array's kind never goes back, so one
 * made with a value and emptied stays general.
 */
export function emptyArray<T>(): T[] {
  const array: unknown[] = [null];
  array.length = 0;
  return array as T[];
}
