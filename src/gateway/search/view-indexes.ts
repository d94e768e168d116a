/**
 * One search index per view (issue 24), following the view's listing: a new listing (the
 * view changed) syncs the index, which re-indexes only the tools that changed.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { OwnerOf } from './search-listing.js';
import { createToolIndex, type RegexMatcher, type ToolIndex } from './tool-index.js';

/** The indexes; `of` is the index of the view `key` as of `listing`. */
export type ViewIndexes = { of(key: string, listing: readonly Tool[], ownerOf: OwnerOf): ToolIndex };

/** Views indexed at most: keys come from the config (the whole view, servers, bots). */
const MAX_VIEWS = 256;

/** Create the indexes. */
/** `regex`: the `regex:` queries' engine (the gateway gives a linear-time one; default the browser's). */
export function createViewIndexes({ regex }: { regex?: RegexMatcher } = {}): ViewIndexes {
  const indexes = new Map<string, { listing: readonly Tool[]; index: ToolIndex }>();
  return {
    of(key, listing, ownerOf) {
      const held = indexes.get(key);
      if (held?.listing === listing) return held.index;
      const index = held?.index ?? createToolIndex(regex ? { regex } : {});
      index.sync(
        listing.map((tool) => {
          const owner = ownerOf(tool.name);
          return { tool, server: owner?.server ?? null, ownName: owner?.shown ?? owner?.name ?? tool.name };
        }),
      );
      indexes.delete(key);
      if (indexes.size >= MAX_VIEWS) indexes.delete(indexes.keys().next().value as string);
      indexes.set(key, { listing, index });
      return index;
    },
  };
}
