/**
 * Agent sessions with no message from the agent for `gateway.sessionIdleMs` are closed,
 * with their own upstream connections (G6); checked a few times per period.
 * @module
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import type { Gateway } from './create-gateway.js';

/** Start sweeping; returns the timer (unref'd) to clear on shutdown. */
export function sweepIdleSessions({
  gateway,
  config,
  log,
}: {
  gateway: Pick<Gateway, 'closeIdle'>;
  config: () => AppConfig;
  log: Logger;
}): NodeJS.Timeout {
  const every = Math.min(60_000, Math.max(1_000, Math.floor(config().gateway.sessionIdleMs / 4)));
  const timer = setInterval(() => {
    void gateway.closeIdle(config().gateway.sessionIdleMs).then((closed) => {
      if (closed > 0) log.info({ closed }, 'closed idle agent sessions');
    });
  }, every);
  timer.unref();
  return timer;
}
