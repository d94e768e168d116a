/**
 * Rug-pull pins (SPEC X5): each tool's fingerprint (description and schemas, see
 * `guard/tool-fingerprint.ts`) is pinned the first time a server lists it. When a server
 * later lists a different one, the pin is quarantined, `tool_quarantined` is published once
 * per new hash and a warning logged; under policy `strict` the tool is hidden from every view
 * until `approve`, under `warn` it stays listed.
 *
 * Hiding does not wait for the database: `isHidden` also hides a tool whose current
 * fingerprint differs from its pin, so a changed tool is never listed, not even between its
 * `catalog_changed` and its quarantine. A tool with no pin yet is trusted (first sight),
 * unless its server is churning or over its cap (`pins.maxPerServer`): then it is held.
 *
 * `tool_pins` stays bounded: a pin keeps bounded texts (`guard/pin-texts.ts`); pins of tools
 * a connected server stopped listing, and of servers gone from the config, are forgotten
 * after a grace; a server whose catalog churns costs one summary per window
 * (`pin-churn.ts`), not an event, row and write per change.
 *
 * Descriptions naming other servers' tools (cross-server shadowing) are logged, and carried in
 * the quarantine event as `shadows`, but never hidden for that alone.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { AppConfig } from '../config/schema.js';
import type { HubEvent } from '../events/hub-event.js';
import type { ShadowingIndex } from '../guard/find-shadowing.js';
import { pinTexts } from '../guard/pin-texts.js';
import type { Hub } from '../hub/create-hub.js';
import type { AuditWriter } from '../storage/audit-writer.js';
import type { Db } from '../storage/create-db.js';
import { approvePin, listPins, quarantinePins, type ToolPin } from '../storage/pin-repo.js';
import { createPinCatalogs } from './pin-catalogs.js';
import { createPinChurn } from './pin-churn.js';
import { createFirstSight } from './pin-first-sight.js';
import { createPinIndex, type GuardPin } from './pin-index.js';
import { createShadowReports } from './pin-shadows.js';
import { startPinTimer } from './pin-timer.js';
import { createPinUpkeep } from './pin-upkeep.js';
import { reloadAndTell } from './reload-pins.js';
import { createSerializer } from './serialize-per-key.js';

/** The pin policy (config `pins.policy`). */
export type PinPolicy = 'strict' | 'warn';

/** The config section `pins`. */
export type PinSettings = AppConfig['pins'];

/** What the guard needs. */
export type PinGuardDeps = {
  db: Db;
  bus: EventBus<HubEvent>;
  log: Logger;
  hub: Pick<Hub, 'upstream'>;
  /** The configured servers, read at each check. */
  servers: () => readonly string[];
  /** Read at each decision, so a config reload applies at once. */
  settings: () => PinSettings;
  /** Where a churning server's summary rows go (`catalog_churn`). */
  audit?: Pick<AuditWriter, 'record'> | undefined;
  /** The clock (ms since the epoch). */
  now?: () => number;
  /** Whether this replica leads the run-once jobs (ADR 041): only the leader sweeps; absent: it does. */
  leads?: () => boolean;
};

/** The pin guard. */
export type PinGuard = {
  /** Load the pins, check the servers connected now, follow the bus and start the sweeps. */
  start(): Promise<void>;
  /** Whether a view must leave the tool out (policy `strict`: changed since pinned, or held unpinned). */
  isHidden(server: string, tool: string): boolean;
  /** Approve the pending change; with `expectedHash`, only if that is still the pending one. */
  approve(server: string, tool: string, expectedHash?: string): Promise<boolean>;
  /** The pin of a tool, if any (a copy). */
  pin(server: string, tool: string): ToolPin | null;
  /** Read `server`'s pins again, changed by replica `from` (cluster mode): holds taken or lifted there apply here. */
  reload(server: string, from: string): Promise<void>;
  /** Whether the server's catalog is churning (its changes summarized per window). */
  churning(server: string): boolean;
  /** Close the churn windows that are over, then forget gone tools and removed servers (the timer's work). */
  sweep(): Promise<void>;
  /** Resolves once every check queued so far has run. */
  idle(): Promise<void>;
  /** Stop following the bus and sweeping; resolves once pending database work is done. */
  stop(): Promise<void>;
};

/** Upkeep (gone tools, removed servers) runs at most this often from the timer. */
const UPKEEP_EVERY_MS = 60_000;

/** Create the guard; call `start()` before the hub connects anything. */
export function createPinGuard({
  db,
  bus,
  log,
  hub,
  servers,
  settings,
  audit,
  now = Date.now,
  leads = () => true,
}: PinGuardDeps): PinGuard {
  const guardLog = log.child({ mod: 'pins' });
  const pins = createPinIndex();
  const catalogs = createPinCatalogs(hub);
  // DB work is serialized per server: overlapping catalog events cannot pin or quarantine twice.
  const queue = createSerializer();
  const shadows = createShadowReports({ servers, listed: catalogs.listed, log: guardLog });
  let unsubscribe: (() => void) | null = null;
  let stopTimer = () => {};
  let lastUpkeep = Number.NEGATIVE_INFINITY;

  const churn = createPinChurn({
    bus,
    log: guardLog,
    audit,
    limits: () => ({ maxChanges: settings().churnMaxChanges, windowMs: settings().churnWindowMs }),
    // Changes only counted meanwhile are written now, and the tools held for the churn pinned.
    onSettled: (server) =>
      void settle(server).catch((error: unknown) =>
        guardLog.error({ err: error, server }, 'could not bring the pins of a settled server up to date'),
      ),
  });
  const firstSight = createFirstSight({ db, log: guardLog, pins, churn, settings, catalogs, shadows });
  const upkeep = createPinUpkeep({
    db,
    log: guardLog,
    pins,
    settings,
    servers,
    listedTools: catalogs.listed,
    serialized: queue.run,
    now,
    forgotten: (server, tools) => shadows.forget(server, tools),
    forgottenServer: (server) => {
      shadows.forget(server);
      firstSight.forget(server);
      churn.forget(server);
    },
  });

  /** Quarantine a pinned tool listed with another fingerprint, unless that change was counted already. */
  const checkPinned = async (server: string, tool: Tool, pin: GuardPin, at: number, others: () => ShadowingIndex) => {
    const hash = catalogs.fingerprint(tool);
    // Unchanged (a tool that changes back stays quarantined), or a change already counted.
    if (hash === pin.hash || (pin.status === 'quarantined' && (pin.pendingHash === hash || pin.countedHash === hash)))
      return;
    const report = churn.note(server, at);
    // While churning, a tool already held keeps its first pending change stored until the churn ends.
    if (!report && pin.status === 'quarantined') {
      pins.set({ ...pin, countedHash: hash });
      return;
    }
    const texts = pinTexts(tool, settings().textMaxChars);
    await quarantinePins(db, server, [{ tool: tool.name, pendingHash: hash, texts }], new Date(at));
    pins.set({ ...pin, status: 'quarantined', pendingHash: hash, countedHash: hash, lastSeenAt: at });
    if (!report) return;
    const shadowed = shadows.report(server, tool, hash, others);
    const policy = settings().policy;
    guardLog.warn(
      { server, tool: tool.name, previousHash: pin.hash, hash, policy },
      policy === 'strict'
        ? 'tool description or schema changed: hidden until approved (bnity mcp approve)'
        : 'tool description or schema changed (policy warn: still listed)',
    );
    bus.publish({
      type: 'tool_quarantined',
      server,
      tool: tool.name,
      previousHash: pin.hash,
      hash,
      policy,
      ...(shadowed.length > 0 ? { shadows: shadowed } : {}),
    });
  };

  /**
   * Check a server's catalog; `counted`: its new names count as changes (a re-list, not a
   * connect). Never rejects: it is started with `void` from the bus, where a failure would
   * leave a server unpinned without a word, so whatever throws is logged here.
   */
  const check = (server: string, counted: boolean): Promise<void> =>
    queue.run(server, () =>
      checkNow(server, counted).catch((error: unknown) => {
        guardLog.error({ err: error, server }, 'could not check the pins of a server');
      }),
    );
  const checkNow = async (server: string, counted: boolean): Promise<void> => {
    const tools = catalogs.listed(server);
    if (!tools) return;
    const at = now();
    const others = shadows.othersOf(server);
    // First sights by name: a name listed twice is pinned as first listed, then checked as pinned.
    const listed = new Set<string>();
    const fresh = new Map<string, Tool>();
    const again: Tool[] = [];
    for (const tool of tools) {
      listed.add(tool.name);
      if (pins.get(server, tool.name) || fresh.has(tool.name)) again.push(tool);
      else fresh.set(tool.name, tool);
    }
    await firstSight.pinNew({ server, fresh: [...fresh.values()], listed, counted, at, others });
    for (const tool of again) {
      const pin = pins.get(server, tool.name);
      if (!pin) continue;
      try {
        await checkPinned(server, tool, pin, at, others);
      } catch (error) {
        guardLog.error({ err: error, server, tool: tool.name }, 'could not check a tool pin');
      }
    }
    await upkeep.keepUp(server, listed, at);
  };

  /** A server stopped churning: write the changes only counted meanwhile (one transaction), then pin what was held. */
  const settle = (server: string): Promise<void> =>
    queue
      .run(server, async () => {
        const textMaxChars = settings().textMaxChars;
        const changes = [];
        for (const tool of catalogs.listed(server) ?? []) {
          const pin = pins.get(server, tool.name);
          const hash = catalogs.fingerprint(tool);
          if (pin?.status !== 'quarantined' || hash === pin.pendingHash || hash === pin.hash) continue;
          changes.push({ pin, tool: tool.name, pendingHash: hash, texts: pinTexts(tool, textMaxChars) });
        }
        const at = now();
        await quarantinePins(db, server, changes, new Date(at));
        for (const { pin, pendingHash } of changes)
          pins.set({ ...pin, pendingHash, countedHash: pendingHash, lastSeenAt: at });
      })
      .then(() => check(server, false));

  const tick = async () => {
    churn.roll(now());
    if (now() - lastUpkeep < UPKEEP_EVERY_MS || !leads()) return;
    lastUpkeep = now();
    await upkeep.sweep();
  };

  return {
    async start() {
      for (const pin of await listPins(db)) pins.set({ ...pin, countedHash: null });
      unsubscribe = bus.subscribeTo(['connected', 'catalog_changed', 'config_applied'], ({ event }) => {
        if (event.type === 'connected' || event.type === 'catalog_changed')
          void check(event.server, event.type === 'catalog_changed');
        else if (event.type === 'config_applied' && leads()) void upkeep.sweep();
      });
      await Promise.all(servers().map((server) => check(server, false)));
      if (leads()) await upkeep.sweep();
      lastUpkeep = now();
      stopTimer = startPinTimer({ churnWindowMs: () => settings().churnWindowMs, tick, log: guardLog });
    },
    isHidden(server, tool) {
      if (settings().policy !== 'strict') return false;
      const pin = pins.get(server, tool);
      if (!pin) return churn.churning(server) || firstSight.overCap(server, tool);
      if (pin.status === 'quarantined') return true;
      const current = catalogs.current(server, tool);
      return current !== undefined && catalogs.fingerprint(current) !== pin.hash;
    },
    approve(server, tool, expectedHash) {
      return queue.run(server, async () => {
        const approved = await approvePin(db, server, tool, new Date(now()), expectedHash);
        if (approved === null) return false;
        const pin = pins.get(server, tool);
        if (pin) pins.set({ ...pin, hash: approved, status: 'approved', pendingHash: null, countedHash: null });
        guardLog.info({ server, tool, hash: approved }, 'tool change approved');
        bus.publish({ type: 'tool_approved', server, tool });
        // The tool may have changed again meanwhile: that is a new quarantine.
        void check(server, false);
        return true;
      });
    },
    pin(server, tool) {
      const pin = pins.get(server, tool);
      if (!pin) return null;
      const { countedHash: _counted, ...copy } = pin;
      return copy;
    },
    reload: (server, from) =>
      queue.run(server, () => reloadAndTell({ db, pins, bus, policy: () => settings().policy }, server, from)),
    churning: (server) => churn.churning(server),
    async sweep() {
      churn.roll(now());
      if (leads()) await upkeep.sweep();
      await queue.idle();
    },
    idle: () => queue.idle(),
    async stop() {
      stopTimer();
      unsubscribe?.();
      unsubscribe = null;
      await queue.idle();
    },
  };
}
