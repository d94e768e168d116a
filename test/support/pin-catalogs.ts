/**
 * What the pin guard tests give a guard in place of the hub: the catalogs a test sets, by
 * server (only what the guard reads of the hub), and a tool with a description of its own.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PinGuardDeps } from '../../src/pins/index.js';

/** A hub whose servers list the tools `catalogs` holds now. */
export function catalogHub(catalogs: ReadonlyMap<string, Tool[]>): PinGuardDeps['hub'] {
  return {
    upstream: (name: string) => {
      const tools = catalogs.get(name);
      return tools ? { catalog: () => ({ tools, resources: [], resourceTemplates: [], prompts: [] }) } : null;
    },
  } as unknown as PinGuardDeps['hub'];
}

/** A tool named `name` described as `description`, with one numeric argument. */
export const describedTool = (name: string, description: string): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { x: { type: 'number' } } },
});

/** The counts a `connected` or `catalog_changed` event carries (the guard reads none). */
export const NO_COUNTS = { toolCount: 0, resourceCount: 0, resourceTemplateCount: 0, promptCount: 0 };
