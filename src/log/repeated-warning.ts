/**
 * A warning that may repeat without end (an upstream writing garbage, issue 17): the first
 * is logged as it is, the next ones are only counted, and a summary of how many ("N more
 * … in the last 60 s", with the last one's fields) is logged once per interval while they
 * keep coming, and once more at `close()`. An interval without any lets the next be logged
 * in full again.
 * @module
 */
import type { Logger } from 'pino';

/** One repeated warning. */
export type RepeatedWarning = {
  /** Log `fields` with the message, or count them. */
  warn(fields: Record<string, unknown>): void;
  /** Log the summary of what was counted and stop the timer. */
  close(): void;
};

/** Options of {@link createRepeatedWarning}; `setTimer` returns a canceller, `now` is in ms. */
export type RepeatedWarningOptions = {
  intervalMs?: number;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => () => void;
};

const realTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** A warning `message` on `log`, said once and then summed up every `intervalMs` (default 60 s). */
export function createRepeatedWarning(
  log: Pick<Logger, 'warn'>,
  message: string,
  { intervalMs = 60_000, now = () => performance.now(), setTimer = realTimer }: RepeatedWarningOptions = {},
): RepeatedWarning {
  let cancel: (() => void) | null = null;
  let since = 0;
  let repeated = 0;
  let last: Record<string, unknown> = {};
  const summarize = () => {
    if (repeated === 0) return;
    const seconds = Math.max(1, Math.round((now() - since) / 1_000));
    log.warn({ ...last, repeated, seconds }, `${message}: ${repeated} more in the last ${seconds} s`);
    repeated = 0;
  };
  const tick = () => {
    // Quiet for a whole interval: the next one is logged in full.
    if (repeated === 0) {
      cancel = null;
      return;
    }
    summarize();
    since = now();
    cancel = setTimer(tick, intervalMs);
  };
  return {
    warn(fields) {
      if (cancel) {
        repeated += 1;
        last = fields;
        return;
      }
      log.warn(fields, message);
      since = now();
      cancel = setTimer(tick, intervalMs);
    },
    close() {
      summarize();
      cancel?.();
      cancel = null;
    },
  };
}
