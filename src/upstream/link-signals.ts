/**
 * A plain abort signal that follows others until it is unlinked. The SDK adds an abort
 * listener to every request's signal and never removes it; Node keeps a timeout or
 * `AbortSignal.any` signal that has a listener in a strong internal set until it aborts,
 * so handing one of those to the SDK roots the `Client` for ever (docs/adr/009).
 * @module
 */

/** A signal of our own and the means to stop it following its sources. */
export type LinkedSignal = {
  /** Aborts with the first source's reason, until {@link LinkedSignal.unlink} is called. */
  readonly signal: AbortSignal;
  /** Removes our listeners from the sources; idempotent. */
  unlink(): void;
};

/** Follow `sources` (undefined entries are skipped) with a fresh, unrooted signal. */
export function linkSignals(sources: readonly (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const present = sources.filter((s): s is AbortSignal => s !== undefined);
  const already = present.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, unlink: () => undefined };
  }
  const listeners = present.map((source) => {
    const onAbort = () => controller.abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    return () => source.removeEventListener('abort', onAbort);
  });
  return {
    signal: controller.signal,
    unlink: () => {
      for (const remove of listeners.splice(0)) remove();
    },
  };
}
