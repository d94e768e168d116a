/**
 * Two small helpers of the start's ordering (main.ts).
 * @module
 */

/** A macrotask later: what this turn started (the spawns) goes first. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The value of `promise`, or null when it failed (its failure is reported where it is awaited). */
export const settled = <T>(promise: Promise<T>): Promise<T | null> => promise.catch(() => null);
