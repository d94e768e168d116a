/**
 * What the replicas of one PostgreSQL keep in step over the fleet bus (issue 22 part 7), built
 * once the gateway is: token revocations (refused everywhere from the next request, the
 * token's sessions ended on every replica), rug-pull quarantines and approvals (each
 * replica's pins read again), the bots' change signal (every replica's bot caches move) and
 * the bots' activity (every replica's sessions told), OAuth to upstreams (`share-oauth.ts`).
 * The rest of the shared state is rows every replica reads (bots, memories, chats, the audit).
 * @module
 */
import type { Logger } from 'pino';
import type { Sql } from 'postgres';
import type { BotChange } from '../bots/ports.js';
import type { EventBus } from '../bus/create-event-bus.js';
import {
  BOT_EVENTS_TOPIC,
  BOTS_TOPIC,
  type FleetBus,
  shareLocalBus,
  sharePins,
  shareRevocations,
} from '../cluster/index.js';
import type { AppConfig } from '../config/schema.js';
import type { HubEvent } from '../events/hub-event.js';
import { type Gateway, isBotEvent } from '../gateway/index.js';
import type { VerifyToken } from '../guard/caller.js';
import type { Hub } from '../hub/create-hub.js';
import type { OAuth } from '../oauth/index.js';
import type { PinGuard } from '../pins/index.js';
import type { Db } from '../storage/create-db.js';
import type { TokenVerifier } from '../storage/token-verifier.js';
import { shareOAuth } from './share-oauth.js';

/** Options of {@link openFleetState}. */
export type OpenFleetStateOptions = {
  fleet: FleetBus;
  db: Db;
  log: Logger;
  config: () => AppConfig;
  events: EventBus<HubEvent>;
  /** The token verifier, with its memory. */
  tokens: TokenVerifier;
  gateway: Pick<Gateway, 'closeSessionsOf'>;
  pins: Pick<PinGuard, 'reload'>;
  botChanges: EventBus<BotChange>;
  /** OAuth to upstreams, with what it needs of the fleet (absent: none is served). */
  oauth?: { oauth: Pick<OAuth, 'joinFleet'>; sql: Sql; hub: Pick<Hub, 'getServer' | 'connect'> } | undefined;
};

/** The fleet's shared state on this replica: the verifier whose `forget` tells every replica, the stop. */
export type FleetState = { verifyToken: VerifyToken; stop(): Promise<void> };

/** Follow and share the fleet's state; undone in reverse if a step fails. */
export async function openFleetState(options: OpenFleetStateOptions): Promise<FleetState> {
  const { fleet, db, config, events, tokens, gateway } = options;
  const log = options.log.child({ mod: 'cluster' });
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    const revocations = await shareRevocations({
      bus: fleet,
      db,
      log,
      staleAfterMs: () => config().replicas.staleAfterMs,
      forget: (id) => {
        tokens.forget(id);
        void gateway
          .closeSessionsOf(id)
          .catch((error: unknown) => log.warn({ err: error, token: id }, 'sessions of a revoked token not ended'));
      },
      forgetAll: () => tokens.clear(),
    });
    stops.push(revocations.stop);
    stops.push(
      await sharePins({
        fleet,
        events,
        reload: (server, from) => options.pins.reload(server, from),
        servers: () => Object.keys(config().mcpServers),
        log,
      }),
    );
    stops.push(await shareLocalBus({ fleet, topic: BOTS_TOPIC, local: options.botChanges, log }));
    // A bot's activity on one replica reaches the agents whose GET streams the others hold.
    // A bot event from another replica names it (`relayedFrom`): `/api/events` shows it as that replica's.
    const stamp = (event: HubEvent, from: string): HubEvent => ({ ...event, relayedFrom: from }) as HubEvent;
    stops.push(await shareLocalBus({ fleet, topic: BOT_EVENTS_TOPIC, local: events, only: isBotEvent, stamp, log }));
    // OAuth flows, records and refreshes across the replicas (K4).
    if (options.oauth) stops.push(await shareOAuth({ ...options.oauth, fleet }));
    // A revocation through this replica answers once every replica forgot the token.
    const verifyToken = Object.assign((token: string) => tokens(token), {
      forget: async (id: string) => {
        tokens.forget(id);
        await revocations.announce(id);
      },
    });
    return { verifyToken, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
