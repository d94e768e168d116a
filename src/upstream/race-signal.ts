/**
 * Abandoning work when a signal aborts: the SDK's `connect()` only takes a signal for its
 * requests, not for spawning or opening a stream.
 * @module
 */

/** Settles like `work`, or rejects with `signal.reason` as soon as `signal` aborts. */
export function raceSignal<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
