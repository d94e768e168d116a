import type { Logger } from 'pino';
import type { ServerEvent } from '../../machines/index.js';

/**
 * Log a server event at the level SPEC S8 and seed 004's table ask for: info for lifecycle
 * (a connection attempt starting included), warn for a failure that will be retried, and the
 * backoff delay on a debug line of its own.
 */
export function logServerEvent(log: Logger, event: ServerEvent): void {
  const server = event.server;
  switch (event.type) {
    case 'connecting':
      log.info({ server, attempt: event.attempt }, 'upstream connection attempt starting');
      return;
    case 'connected':
      log.info(
        {
          server,
          transport: event.transport,
          pid: event.pid,
          tools: event.toolCount,
          resources: event.resourceCount,
          prompts: event.promptCount,
        },
        'upstream connected',
      );
      return;
    case 'reconnecting':
      log.warn(
        { server, attempt: event.attempt, delayMs: event.delayMs, error: event.error?.message },
        'upstream reconnect scheduled',
      );
      log.debug({ server, attempt: event.attempt, delayMs: event.delayMs }, 'upstream backoff delay starting');
      return;
    case 'needs_authorization':
      log.warn(
        { server, authorizationServer: event.authorizationServer, error: event.error?.message },
        'upstream needs authorization',
      );
      return;
    case 'disabled':
      log.info({ server, reason: event.reason }, 'upstream disabled');
      return;
    case 'removed':
      log.info({ server }, 'upstream removed');
      return;
    case 'catalog_changed':
      log.info({ server, changes: event.changes }, 'upstream catalog changed');
      return;
    case 'health':
      log.debug({ server, latencyMs: event.latencyMs }, 'upstream health ping');
      return;
  }
}
