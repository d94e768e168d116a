/**
 * The in-process half of serialized config writes (SPEC C4): edits from one process run one
 * after another, so they never wait on their own process's file lock.
 * @module
 */

/** Runs tasks one at a time, in the order given; a failed task does not stop the next. */
export type EditQueue = { run<T>(task: () => Promise<T>): Promise<T> };

/** A new, empty queue (one per service, shared by every writer of its config file). */
export function createEditQueue(): EditQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(task) {
      const run = tail.then(task, task);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}
