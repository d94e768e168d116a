/**
 * The total limit of a relayed request that progress keeps alive (SPEC G4 "never a hang";
 * the MCP spec: always enforce a maximum timeout). Progress restarts a request's own limit,
 * so an upstream reporting every 50 s could hold a call and its in-flight place for ever.
 * The SDK's `maxTotalTimeout` is only checked when progress comes and then drops the request
 * without telling the upstream; this ends it through its signal instead, at the total limit
 * to the millisecond, so the upstream is sent `notifications/cancelled` (and an HTTP
 * exchange is aborted) as on any timeout. Nothing is armed until the first progress.
 * @module
 */
import { performance } from 'node:perf_hooks';

/** A request's signal that also ends at the total limit; `progressed()` on each progress, `stop()` once it ended. */
export type TotalLimit = {
  readonly signal: AbortSignal;
  /** The error it ended with, if the total limit ended it. */
  readonly over: Error | null;
  progressed(): void;
  stop(): void;
};

/** Limit a request begun now, under `signal`, to `maxMs` in all; `reason` is the error it then ends with. */
export function limitTotal(signal: AbortSignal, maxMs: number, reason: (maxMs: number) => Error): TotalLimit {
  const began = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let over: Error | null = null;
  return {
    signal: AbortSignal.any([signal, controller.signal]),
    get over() {
      return over;
    },
    progressed() {
      if (timer !== undefined) return;
      timer = setTimeout(
        () => {
          over = reason(maxMs);
          controller.abort(over);
        },
        Math.max(0, maxMs - (performance.now() - began)),
      );
    },
    stop() {
      clearTimeout(timer);
    },
  };
}
