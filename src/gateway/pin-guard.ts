/**
 * Rug-pull pins (SPEC X5): each tool's fingerprint (description and schemas, see
 * `guard/tool-fingerprint.ts`) is pinned the first time a server lists it. When a server
 * later lists a different one, the pin is quarantined, `tool_quarantined` is published once
 * per new hash and a warning logged; under policy `strict` the tool is hidden from every view
 * until `approve`, under `warn` it stays listed.
 *
 * Hiding does not wait for the database: `isHidden` also hides a tool whose current
 * fingerprint differs from its pin, so a changed tool is never listed, not even between its
 * `catalog_changed` and its quarantine. A tool with no pin yet is trusted (first sight).
 *
 * Descriptions naming other servers' tools (cross-server shadowing) are logged, and carried in
 * the quarantine event as `shadows`, but never hidden for that alone.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../events/hub-event.js';
import { type ShadowingIndex, shadowingIndex } from '../guard/find-shadowing.js';
import { pinnedFields, toolFingerprint } from '../guard/tool-fingerprint.js';
import type { Hub } from '../hub/create-hub.js';
import type { Db } from '../storage/create-db.js';
import { approvePin, insertPins, listPins, type NewPin, quarantinePin, type ToolPin } from '../storage/pin-repo.js';

/** The pin policy (config `pins.policy`). */
export type PinPolicy = 'strict' | 'warn';

/** What the guard needs. */
export type PinGuardDeps = {
  db: Db;
  bus: EventBus<HubEvent>;
  log: Logger;
  hub: Pick<Hub, 'upstream'>;
  /** The configured servers, read at each check. */
  servers: () => readonly string[];
  /** Read at each decision, so a config reload applies at once. */
  policy: () => PinPolicy;
};

/** The pin guard. */
export type PinGuard = {
  /** Load the pins, check the servers connected now, and follow the bus. */
  start(): Promise<void>;
  /** Whether a view must leave the tool out (policy `strict` and changed since pinned). */
  isHidden(server: string, tool: string): boolean;
  /** Accept a quarantined tool's new fingerprint; false when it is not quarantined. */
  /** Approve the pending change; with `expectedHash`, only if that is still the pending one. */
  approve(server: string, tool: string, expectedHash?: string): Promise<boolean>;
  /** The pin of a tool, if any (a copy). */
  pin(server: string, tool: string): ToolPin | null;
  /** Resolves once every check queued so far has run. */
  idle(): Promise<void>;
  /** Stop following the bus; resolves once pending database work is done. */
  stop(): Promise<void>;
};

const keyOf = (server: string, tool: string) => `${server}\u0000${tool}`;

/** Create the guard; call `start()` before the hub connects anything. */
export function createPinGuard({ db, bus, log, hub, servers, policy }: PinGuardDeps): PinGuard {
  const guardLog = log.child({ mod: 'pins' });
  const pins = new Map<string, ToolPin>();
  // Catalogs are replaced, never mutated: fingerprints are computed once per tool object.
  const fingerprints = new WeakMap<Tool, string>();
  const byName = new WeakMap<readonly Tool[], Map<string, Tool>>();
  const warnedShadows = new Set<string>();
  // DB work is serialized per server: overlapping catalog events cannot pin or quarantine twice.
  const queues = new Map<string, Promise<unknown>>();
  let unsubscribe: (() => void) | null = null;

  const fingerprint = (tool: Tool): string => {
    let hash = fingerprints.get(tool);
    if (hash === undefined) {
      hash = toolFingerprint(tool);
      fingerprints.set(tool, hash);
    }
    return hash;
  };
  const currentTool = (server: string, name: string): Tool | undefined => {
    const tools = hub.upstream(server)?.catalog().tools;
    if (!tools) return undefined;
    let index = byName.get(tools);
    if (!index) {
      index = new Map(tools.map((t) => [t.name, t]));
      byName.set(tools, index);
    }
    return index.get(name);
  };

  const serialized = <T>(server: string, work: () => Promise<T>): Promise<T> => {
    const previous = queues.get(server) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    queues.set(server, settled);
    void settled.then(() => {
      if (queues.get(server) === settled) queues.delete(server);
    });
    return next;
  };

  // The other servers' tools, indexed once per check of a catalog (not once per tool).
  const othersOf = (server: string): ShadowingIndex =>
    shadowingIndex(
      servers()
        .filter((other) => other !== server)
        .flatMap((other) => (hub.upstream(other)?.catalog().tools ?? []).map((t) => ({ server: other, name: t.name }))),
    );

  const shadowsOf = (server: string, tool: Tool, hash: string, others: ShadowingIndex): string[] => {
    const shadows = others.find(server, tool);
    const warned = `${keyOf(server, tool.name)}\u0000${hash}`;
    if (shadows.length > 0 && !warnedShadows.has(warned)) {
      warnedShadows.add(warned);
      guardLog.warn({ server, tool: tool.name, shadows }, 'tool description names tools of other servers');
    }
    return shadows;
  };

  /** Quarantine a pinned tool listed with another fingerprint, unless that change was reported already. */
  const checkPinned = async (server: string, tool: Tool, pin: ToolPin, others: () => ShadowingIndex) => {
    const hash = fingerprint(tool);
    // Unchanged, or a change already reported (a tool that changes back stays quarantined).
    if (hash === pin.hash || (pin.status === 'quarantined' && pin.pendingHash === hash)) return;
    await quarantinePin(db, server, tool.name, hash, { fields: pinnedFields(tool) });
    pins.set(keyOf(server, tool.name), { ...pin, status: 'quarantined', pendingHash: hash });
    const shadows = shadowsOf(server, tool, hash, others());
    const current = policy();
    guardLog.warn(
      { server, tool: tool.name, previousHash: pin.hash, hash, policy: current },
      current === 'strict'
        ? 'tool description or schema changed: hidden until approved (bnity mcp approve)'
        : 'tool description or schema changed (policy warn: still listed)',
    );
    bus.publish({
      type: 'tool_quarantined',
      server,
      tool: tool.name,
      previousHash: pin.hash,
      hash,
      policy: current,
      ...(shadows.length > 0 ? { shadows } : {}),
    });
  };

  /** Pin the tools seen for the first time, in one transaction, and report their shadowing. */
  const pinNew = async (server: string, tools: readonly Tool[], others: () => ShadowingIndex) => {
    const fresh = tools.map((tool): NewPin & { source: Tool } => ({
      source: tool,
      tool: tool.name,
      hash: fingerprint(tool),
      fields: pinnedFields(tool),
    }));
    try {
      await insertPins(db, server, fresh);
    } catch (error) {
      guardLog.error({ err: error, server, tools: fresh.length }, 'could not pin the new tools');
      return;
    }
    for (const { source, tool, hash } of fresh) {
      pins.set(keyOf(server, tool), { server, tool, hash, status: 'pinned', pendingHash: null });
      shadowsOf(server, source, hash, others());
    }
  };

  const check = (server: string): Promise<void> =>
    serialized(server, async () => {
      const tools = hub.upstream(server)?.catalog().tools ?? [];
      let index: ShadowingIndex | null = null;
      const others = () => {
        index ??= othersOf(server);
        return index;
      };
      // First sights by name: a name listed twice is pinned as first listed, then checked as pinned.
      const fresh = new Map<string, Tool>();
      const again: Tool[] = [];
      for (const tool of tools) {
        if (pins.has(keyOf(server, tool.name))) again.push(tool);
        else if (fresh.has(tool.name)) again.push(tool);
        else fresh.set(tool.name, tool);
      }
      if (fresh.size > 0) await pinNew(server, [...fresh.values()], others);
      for (const tool of again) {
        const pin = pins.get(keyOf(server, tool.name));
        if (!pin) continue;
        try {
          await checkPinned(server, tool, pin, others);
        } catch (error) {
          guardLog.error({ err: error, server, tool: tool.name }, 'could not check a tool pin');
        }
      }
    });

  const idle = async (): Promise<void> => {
    while (queues.size > 0) await Promise.all([...queues.values()]);
  };

  return {
    async start() {
      for (const pin of await listPins(db)) pins.set(keyOf(pin.server, pin.tool), pin);
      unsubscribe = bus.subscribe(({ event }) => {
        if (event.type === 'connected' || event.type === 'catalog_changed') void check(event.server);
      });
      await Promise.all(servers().map((server) => check(server)));
    },
    isHidden(server, tool) {
      if (policy() !== 'strict') return false;
      const pin = pins.get(keyOf(server, tool));
      if (!pin) return false;
      if (pin.status === 'quarantined') return true;
      const current = currentTool(server, tool);
      return current !== undefined && fingerprint(current) !== pin.hash;
    },
    approve(server, tool, expectedHash) {
      return serialized(server, async () => {
        const approved = await approvePin(db, server, tool, new Date(), expectedHash);
        if (approved === null) return false;
        const key = keyOf(server, tool);
        pins.set(key, { server, tool, hash: approved, status: 'approved', pendingHash: null });
        guardLog.info({ server, tool, hash: approved }, 'tool change approved');
        bus.publish({ type: 'tool_approved', server, tool });
        // The tool may have changed again meanwhile: that is a new quarantine.
        void check(server);
        return true;
      });
    },
    pin(server, tool) {
      const pin = pins.get(keyOf(server, tool));
      return pin ? { ...pin } : null;
    },
    idle,
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      await idle();
    },
  };
}
