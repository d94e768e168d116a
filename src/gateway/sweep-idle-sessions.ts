/**
 * Agent sessions with no message from the agent for `gateway.sessionIdleMs`, and no
 * request in flight, are closed with their own upstream connections (G6, X8). The sweep
 * follows the timeout: it runs when the next session would expire (at most a second late,
 * and at least every two seconds, so a timeout lowered by a config reload takes hold).
 * @module
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import type { Gateway } from './create-gateway.js';
import { lastActiveAt } from './session/index.js';

/** The shortest wait between two sweeps: a burst of expiries is reaped together. */
const MIN_WAIT_MS = 1_000;
/** The longest: a lowered timeout is noticed within this. */
const MAX_WAIT_MS = 2_000;

/** Start sweeping; returns the function that stops it. */
export function sweepIdleSessions({
  gateway,
  config,
  log,
  now = Date.now,
}: {
  gateway: Pick<Gateway, 'closeIdle' | 'sessions'>;
  config: () => AppConfig;
  log: Logger;
  now?: () => number;
}): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    const idleMs = config().gateway.sessionIdleMs;
    let next = Number.POSITIVE_INFINITY;
    const at = now();
    for (const session of gateway.sessions())
      if (session.idles) next = Math.min(next, lastActiveAt(session, at) + idleMs);
    const wait = Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, next - at + 1));
    timer = setTimeout(sweep, wait);
    timer.unref();
  };
  const sweep = () => {
    void gateway
      .closeIdle(config().gateway.sessionIdleMs)
      .then((closed) => {
        if (closed > 0) log.info({ closed }, 'closed idle agent sessions');
      })
      .finally(schedule);
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
