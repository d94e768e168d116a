/**
 * Cross-server shadowing for the pin guard (SPEC X5): a tool whose texts name other servers'
 * tools is logged once per tool and fingerprint (what is remembered is bounded by the pins),
 * and the names go in its `tool_quarantined` event. Shadowing alone hides nothing.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { type ShadowingIndex, shadowingIndex } from '../guard/find-shadowing.js';

/** The reports. */
export type ShadowReports = {
  /** The other servers' tools, indexed once, when first asked, for one check of `server`. */
  othersOf(server: string): () => ShadowingIndex;
  /** The public names of other servers' tools that `tool` names; logged once per fingerprint. */
  report(server: string, tool: Tool, hash: string, others: () => ShadowingIndex): string[];
  /** Forget what was logged for these tools of `server` (or all of them). */
  forget(server: string, tools?: readonly string[]): void;
};

/** What the reports need: the configured servers and what each lists. */
export type ShadowReportsDeps = {
  servers: () => readonly string[];
  listed: (server: string) => readonly Tool[] | null;
  log: Logger;
};

const keyOf = (server: string, tool: string) => `${server}\u0000${tool}`;

/** Create the reports. */
export function createShadowReports({ servers, listed, log }: ShadowReportsDeps): ShadowReports {
  // Per server and tool, the fingerprint whose shadowing was last logged.
  const warned = new Map<string, string>();
  return {
    othersOf(server) {
      let index: ShadowingIndex | null = null;
      return () => {
        index ??= shadowingIndex(
          servers()
            .filter((other) => other !== server)
            .flatMap((other) => (listed(other) ?? []).map((t) => ({ server: other, name: t.name }))),
        );
        return index;
      };
    },
    report(server, tool, hash, others) {
      const shadows = others().find(server, tool);
      const key = keyOf(server, tool.name);
      if (shadows.length > 0 && warned.get(key) !== hash) {
        warned.set(key, hash);
        log.warn({ server, tool: tool.name, shadows }, 'tool description names tools of other servers');
      }
      return shadows;
    },
    forget(server, tools) {
      if (tools) for (const tool of tools) warned.delete(keyOf(server, tool));
      else for (const key of warned.keys()) if (key.startsWith(keyOf(server, ''))) warned.delete(key);
    },
  };
}
