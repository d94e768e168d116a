/**
 * Rug-pull pins (SPEC X5), keeping `tool_pins` bounded over time: when a connected server
 * lists its tools, `lastSeenAt` is refreshed (written at most once per touch interval, not
 * at each re-list) and the pins of tools it has not listed for `pins.forgetGoneToolAfterMs`
 * are forgotten; a server missing from the config is marked removed, and its pins are
 * forgotten `pins.forgetRemovedServerAfterMs` later (a server removed and added back by a
 * careless edit keeps its pins meanwhile). The decisions are `guard/plan-pin-upkeep.ts`.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { goneTools, pinsToTouch, touchEveryMs } from '../guard/plan-pin-upkeep.js';
import type { Db } from '../storage/create-db.js';
import { forgetPins, forgetServerPins, markServerRemoved, touchPins } from '../storage/pin-upkeep-repo.js';
import type { PinSettings } from './pin-guard.js';
import type { PinIndex } from './pin-index.js';

/** What the upkeep needs: the guard's pins and its way of serializing a server's work. */
export type PinUpkeepDeps = {
  db: Db;
  log: Logger;
  pins: PinIndex;
  settings: () => PinSettings;
  /** The configured servers. */
  servers: () => readonly string[];
  /** A server's tools if it is connected, else null (a server that is down lists nothing, but loses nothing). */
  listedTools: (server: string) => readonly Tool[] | null;
  serialized: <T>(server: string, work: () => Promise<T>) => Promise<T>;
  now: () => number;
  /** Told of the pins forgotten, to drop what the guard keeps beside them. */
  forgotten: (server: string, tools: readonly string[]) => void;
  forgottenServer: (server: string) => void;
};

/** The upkeep. */
export type PinUpkeep = {
  /** After a check of `server` (run inside its serialized work): refresh last-seen, forget gone tools. */
  keepUp(server: string, listed: ReadonlySet<string>, at: number): Promise<void>;
  /** Every server with pins: removed ones marked or forgotten, connected ones kept up. */
  sweep(): Promise<void>;
};

/** Create the upkeep. */
export function createPinUpkeep(deps: PinUpkeepDeps): PinUpkeep {
  const { db, log, pins, settings, servers, listedTools, serialized, now } = deps;

  const keepUp = async (server: string, listed: ReadonlySet<string>, at: number) => {
    const { forgetGoneToolAfterMs } = settings();
    const mine = [...pins.of(server).values()];
    const touch = pinsToTouch(mine, listed, at, touchEveryMs(forgetGoneToolAfterMs));
    const gone = goneTools(mine, listed, at, forgetGoneToolAfterMs);
    try {
      if (touch.length > 0) {
        await touchPins(db, server, touch, new Date(at));
        for (const tool of touch) {
          const pin = pins.get(server, tool);
          if (pin) pins.set({ ...pin, lastSeenAt: at });
        }
      }
      if (gone.length > 0) {
        await forgetPins(db, server, gone);
        for (const tool of gone) pins.delete(server, tool);
        deps.forgotten(server, gone);
        log.info(
          { server, tools: gone.length, forgetGoneToolAfterMs },
          'forgot the pins of tools the server no longer lists',
        );
      }
    } catch (error) {
      log.warn({ err: error, server }, 'pin upkeep failed; tried again at the next check');
    }
  };

  /** A server not in the config: mark its pins removed, or forget them once the grace is over. */
  const removed = async (server: string, at: number) => {
    const [first] = pins.of(server).values();
    if (!first) return;
    if (first.serverRemovedAt === null) {
      await markServerRemoved(db, server, new Date(at));
      for (const pin of [...pins.of(server).values()]) pins.set({ ...pin, serverRemovedAt: at });
      return;
    }
    const { forgetRemovedServerAfterMs } = settings();
    if (at - first.serverRemovedAt < forgetRemovedServerAfterMs) return;
    const count = pins.of(server).size;
    await forgetServerPins(db, server);
    pins.deleteServer(server);
    deps.forgottenServer(server);
    log.info(
      { server, pins: count, forgetRemovedServerAfterMs },
      'forgot the pins of a server removed from the config',
    );
  };

  /** A configured server: its removal mark lifted (it was added back), and kept up if connected. */
  const configured = async (server: string, at: number) => {
    const mine = [...pins.of(server).values()];
    if (mine.some((pin) => pin.serverRemovedAt !== null)) {
      await markServerRemoved(db, server, null);
      for (const pin of mine) pins.set({ ...pin, serverRemovedAt: null });
    }
    const tools = listedTools(server);
    if (tools) await keepUp(server, new Set(tools.map((t) => t.name)), at);
  };

  return {
    keepUp,
    async sweep() {
      const inConfig = new Set(servers());
      await Promise.all(
        [...pins.servers()].map((server) =>
          serialized(server, async () => {
            const at = now();
            try {
              await (inConfig.has(server) ? configured(server, at) : removed(server, at));
            } catch (error) {
              log.warn({ err: error, server }, 'pin upkeep failed; tried again at the next sweep');
            }
          }),
        ),
      );
    },
  };
}
