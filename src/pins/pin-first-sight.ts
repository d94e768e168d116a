/**
 * Rug-pull pins (SPEC X5), first sight: the tools a server lists that have no pin yet are
 * pinned, trusted as they are, all in one transaction. Two things hold a new tool back
 * unpinned (hidden under `strict`): a server whose catalog churns (a new name in a changed
 * catalog counts as a change; it is pinned once the churn ends), and the cap
 * `pins.maxPerServer`, which first evicts the pins of tools the server no longer lists,
 * least recently seen first.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { ShadowingIndex } from '../guard/find-shadowing.js';
import { pinTexts } from '../guard/pin-texts.js';
import { planCap } from '../guard/plan-pin-upkeep.js';
import type { Db } from '../storage/create-db.js';
import { insertPins } from '../storage/pin-repo.js';
import type { PinCatalogs } from './pin-catalogs.js';
import type { PinChurn } from './pin-churn.js';
import type { PinSettings } from './pin-guard.js';
import type { PinIndex } from './pin-index.js';
import type { ShadowReports } from './pin-shadows.js';

/** What first sight needs from the guard. */
export type FirstSightDeps = {
  db: Db;
  log: Logger;
  pins: PinIndex;
  churn: PinChurn;
  settings: () => PinSettings;
  catalogs: Pick<PinCatalogs, 'fingerprint'>;
  shadows: ShadowReports;
};

/** One server's new tools, as a check found them. */
export type FreshTools = {
  readonly server: string;
  readonly fresh: readonly Tool[];
  /** Every name the server lists now (never evicted for room). */
  readonly listed: ReadonlySet<string>;
  /** Whether new names count as changes (a re-list; not a connect or a start). */
  readonly counted: boolean;
  readonly at: number;
  readonly others: () => ShadowingIndex;
};

/** First sight. */
export type FirstSight = {
  /** Pin what may be pinned of `fresh`; run inside the server's serialized work. */
  pinNew(found: FreshTools): Promise<void>;
  /** Whether a tool is held unpinned because its server is over its cap. */
  overCap(server: string, tool: string): boolean;
  forget(server: string): void;
};

/** Create it. */
export function createFirstSight({ db, log, pins, churn, settings, catalogs, shadows }: FirstSightDeps): FirstSight {
  // Per server, the tools held at its last check: for the churn (so each counts once) and over the cap.
  const churnHeld = new Map<string, ReadonlySet<string>>();
  const capHeld = new Map<string, ReadonlySet<string>>();

  const admit = ({ server, fresh, counted, at }: FreshTools): Tool[] => {
    const wasHeld = churnHeld.get(server);
    const admitted: Tool[] = [];
    const held = new Set<string>();
    for (const tool of fresh) {
      const counts = counted && !wasHeld?.has(tool.name);
      if (counts ? churn.note(server, at) : !churn.churning(server)) admitted.push(tool);
      else held.add(tool.name);
    }
    if (held.size > 0) churnHeld.set(server, held);
    else churnHeld.delete(server);
    return admitted;
  };

  return {
    async pinNew(found) {
      const { server, listed, at } = found;
      const admitted = admit(found);
      const { maxPerServer, textMaxChars } = settings();
      const plan = planCap([...pins.of(server).values()], listed, admitted.length, maxPerServer);
      const overCap = new Set(admitted.slice(plan.admit).map((t) => t.name));
      if (overCap.size > 0 && !capHeld.has(server))
        log.warn(
          { server, held: overCap.size, maxPerServer },
          'server lists more tools than pins.maxPerServer: the tools beyond it are held unpinned',
        );
      if (overCap.size > 0) capHeld.set(server, overCap);
      else capHeld.delete(server);
      const rows = admitted.slice(0, plan.admit).map((tool) => ({
        source: tool,
        tool: tool.name,
        hash: catalogs.fingerprint(tool),
        texts: pinTexts(tool, textMaxChars),
      }));
      if (rows.length === 0 && plan.evict.length === 0) return;
      try {
        await insertPins(db, server, rows, { at: new Date(at), evict: plan.evict });
      } catch (error) {
        log.error({ err: error, server, tools: rows.length }, 'could not pin the new tools');
        return;
      }
      for (const tool of plan.evict) pins.delete(server, tool);
      shadows.forget(server, plan.evict);
      for (const { source, tool, hash } of rows) {
        pins.set({
          server,
          tool,
          hash,
          status: 'pinned',
          pendingHash: null,
          lastSeenAt: at,
          serverRemovedAt: null,
          countedHash: null,
        });
        shadows.report(server, source, hash, found.others);
      }
    },
    overCap: (server, tool) => capHeld.get(server)?.has(tool) ?? false,
    forget(server) {
      churnHeld.delete(server);
      capHeld.delete(server);
    },
  };
}
