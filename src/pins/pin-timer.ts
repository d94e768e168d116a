/**
 * The pin guard's timer: rolls the churn windows and runs the upkeep sweep (on the leader, at
 * most once a minute), every quarter of the churn window, so a window's summary is at most
 * that late. One run at a time; the next is scheduled once the last has ended.
 * @module
 */
import type { Logger } from 'pino';

/** Options of {@link startPinTimer}. */
export type PinTimerOptions = {
  /** The churn window (read at each turn, so a config reload applies). */
  churnWindowMs: () => number;
  /** One turn's work. */
  tick: () => Promise<void>;
  log: Pick<Logger, 'error'>;
};

/** Start the timer; returns the function that stops it. */
export function startPinTimer({ churnWindowMs, tick, log }: PinTimerOptions): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped) return;
    const every = Math.min(15_000, Math.max(250, Math.floor(churnWindowMs() / 4)));
    timer = setTimeout(
      () =>
        void tick()
          .catch((error: unknown) => log.error({ err: error }, 'pin sweep failed'))
          .finally(schedule),
      every,
    );
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
