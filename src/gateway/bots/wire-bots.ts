/**
 * The bots' side of the gateway (G8, issue 18, ADR 023): the bot tools and prompts served over
 * the gateway's own tool port, the bots' activity kept for reads, and the bot changes and
 * events carried to the sessions that see each bot. Kept apart from `create-gateway.ts` so
 * that everything switched on by `bots` is made, and let go of, in one place.
 * @module
 */
import type { Logger } from 'pino';
import type { BotToolCaller } from '../../bots/ports.js';
import type { EventBus } from '../../bus/create-event-bus.js';
import type { HubEvent } from '../../events/hub-event.js';
import type { BotSurface, CallPath } from '../requests/index.js';
import { endSessions } from '../session/index.js';
import type { SessionRegistry } from '../session/session-registry.js';
import { createBotActivity } from './bot-activity.js';
import type { GatewayBotToolCaller } from './bot-tool-caller.js';
import { endGoneBots } from './end-gone-bots.js';
import { notifyBotChange } from './notify-bot-changes.js';
import { pushBotEvents } from './push-bot-events.js';

/** Wire the bots onto `core` (a path with none); returns the path that serves them and their stop. */
export function wireBots({
  core,
  serveBots,
  botToolCaller,
  bus,
  sessions,
  botExists,
  log,
}: {
  core: CallPath;
  /** Absent: no bot tools are served, and `core` is the path. */
  serveBots: ((caller: BotToolCaller) => BotSurface) | undefined;
  botToolCaller: GatewayBotToolCaller;
  bus: EventBus<HubEvent>;
  sessions: SessionRegistry;
  /** Whether the registry has bot `slug`; absent: no registry. */
  botExists: ((slug: string) => Promise<boolean>) | undefined;
  log: Logger;
}): { path: CallPath; stop(): void } {
  const bots = serveBots ? serveBots(botToolCaller) : null;
  // Kept from the start: a read shows what happened before the reader came (issue 18, ADR 023).
  const activity = bots ? createBotActivity({ bus, sessions, log }) : null;
  const path: CallPath = { ...core, bots, activity };
  // A bot that went takes its agents' sessions with it, not leaving them a wider view (X1).
  const gone = endGoneBots({ bus, sessions, config: core.config, botExists, end: endSessions, log });
  const stopBotChanges = bots
    ? bots.tools.onChange((change) => {
        if (change.kind === 'deleted') {
          void botToolCaller.forget(change.slug);
          gone.deleted(change.slug);
        }
        notifyBotChange({ sessions, log }, change);
      })
    : () => undefined;
  // Bot activity reaches the sessions that see the bot (issue 18, ADR 023).
  const stopBotEvents = bots ? pushBotEvents({ bus, sessions, log }) : () => undefined;
  return {
    path,
    stop() {
      stopBotChanges();
      stopBotEvents();
      gone.stop();
      activity?.stop();
    },
  };
}
