/**
 * The pin guard's pins in memory, by server then tool, so that what belongs to one server
 * (its upkeep, its cap, its removal) is found without a scan of every pin.
 * @module
 */
import type { ToolPin } from '../storage/pin-repo.js';

/** A pin in memory: the stored one, and the last fingerprint counted as a change. */
export type GuardPin = ToolPin & {
  /** Keeps a change that was only counted (churn) from being counted again at each re-list. */
  countedHash: string | null;
};

/** The index. */
export type PinIndex = {
  get(server: string, tool: string): GuardPin | undefined;
  set(pin: GuardPin): void;
  delete(server: string, tool: string): void;
  deleteServer(server: string): void;
  /** The pins of one server (a live view: copy before deleting while iterating). */
  of(server: string): ReadonlyMap<string, GuardPin>;
  servers(): string[];
};

const NONE: ReadonlyMap<string, GuardPin> = new Map();

/** An empty index. */
export function createPinIndex(): PinIndex {
  const byServer = new Map<string, Map<string, GuardPin>>();
  return {
    get: (server, tool) => byServer.get(server)?.get(tool),
    set(pin) {
      let tools = byServer.get(pin.server);
      if (!tools) {
        tools = new Map();
        byServer.set(pin.server, tools);
      }
      tools.set(pin.tool, pin);
    },
    delete(server, tool) {
      const tools = byServer.get(server);
      tools?.delete(tool);
      if (tools?.size === 0) byServer.delete(server);
    },
    deleteServer: (server) => void byServer.delete(server),
    of: (server) => byServer.get(server) ?? NONE,
    servers: () => [...byServer.keys()],
  };
}
