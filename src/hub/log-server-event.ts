import type { Logger } from 'pino';
import type { ServerEvent } from '../../machines/index.js';

/** Log a server event at the level SPEC S8 asks for: info for lifecycle, warn for failures. */
export function logServerEvent(log: Logger, event: ServerEvent): void {
  const server = event.server;
  switch (event.type) {
    case 'connecting':
      log.debug({ server, attempt: event.attempt }, 'upstream connecting');
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
