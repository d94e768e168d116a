/**
 * The pin guard's reading of the hub's catalogs: what a connected server lists, one tool by
 * name, and fingerprints computed once per tool object (catalogs are replaced, never
 * mutated, so a re-list of unchanged objects costs no hashing).
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { toolFingerprint } from '../guard/tool-fingerprint.js';
import type { Hub } from '../hub/create-hub.js';

/** The reader. */
export type PinCatalogs = {
  /** A server's tools while it is connected, else null (a server that is down lists nothing). */
  listed(server: string): readonly Tool[] | null;
  /** The tool a connected server lists under `name`, if any. */
  current(server: string, name: string): Tool | undefined;
  fingerprint(tool: Tool): string;
};

/** Create the reader over `hub`. */
export function createPinCatalogs(hub: Pick<Hub, 'upstream'>): PinCatalogs {
  const fingerprints = new WeakMap<Tool, string>();
  const byName = new WeakMap<readonly Tool[], Map<string, Tool>>();
  const listed = (server: string): readonly Tool[] | null => hub.upstream(server)?.catalog().tools ?? null;
  return {
    listed,
    current(server, name) {
      const tools = listed(server);
      if (!tools) return undefined;
      let index = byName.get(tools);
      if (!index) {
        index = new Map(tools.map((t) => [t.name, t]));
        byName.set(tools, index);
      }
      return index.get(name);
    },
    fingerprint(tool) {
      let hash = fingerprints.get(tool);
      if (hash === undefined) {
        hash = toolFingerprint(tool);
        fingerprints.set(tool, hash);
      }
      return hash;
    },
  };
}
