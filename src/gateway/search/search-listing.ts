/**
 * Whether an agent gets search mode, and the listing it then gets (issue 24). The most
 * specific setting wins: the token's (`gateway.toolSearch.tokens`), the bot's `toolSearch`,
 * the gateway's `gateway.toolSearch.mode`.
 * `auto` is on while the full listing's estimated size is over `autoThresholdTokens`.
 * Each listing is looked at once: the answers are kept with the listing array, which the
 * view cache keeps while the view does not change.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AppConfig } from '../../config/schema.js';
import type { ToolSearchMode } from '../../config/tool-schemas.js';
import { estimateTokens } from './estimate-tokens.js';
import { metaTools } from './meta-tools.js';

/** The server and upstream name of a listed tool (`shown`: the operator's name for it); null for a bot tool. */
export type OwnerOf = (
  publicName: string,
) => { readonly server: string; readonly name: string; readonly shown?: string | undefined } | null;

/** Estimated tokens of each listing seen, and its search-mode listing. */
const sizes = new WeakMap<readonly Tool[], number>();
const reduced = new WeakMap<readonly Tool[], { readonly key: string; readonly tools: Tool[] }>();

/**
 * The mode in force for a session, the most specific first: its token's (`clientId`: a
 * token id, or `admin`), its bot's, the gateway's.
 */
export function toolSearchMode(config: AppConfig, bot: string | null, clientId: string | null = null): ToolSearchMode {
  const { tokens, mode } = config.gateway.toolSearch;
  const token = clientId !== null && Object.hasOwn(tokens, clientId) ? tokens[clientId] : undefined;
  const own = bot !== null && Object.hasOwn(config.bots, bot) ? config.bots[bot]?.toolSearch : undefined;
  return token ?? own ?? mode;
}

/** Estimated tokens of `listing`'s definitions, as `tools/list` would send them. */
export function listingTokens(listing: readonly Tool[]): number {
  let size = sizes.get(listing);
  if (size === undefined) {
    size = estimateTokens({ tools: listing });
    sizes.set(listing, size);
  }
  return size;
}

/** Whether search mode is on for a view with `listing`, given its mode. */
export function isSearchOn(config: AppConfig, mode: ToolSearchMode, listing: readonly Tool[]): boolean {
  if (mode !== 'auto') return mode === 'on';
  return listingTokens(listing) > config.gateway.toolSearch.autoThresholdTokens;
}

/** The listing in search mode: the meta-tools, then the listed tools marked `alwaysLoad`. */
export function searchModeListing(config: AppConfig, listing: readonly Tool[], ownerOf: OwnerOf): Tool[] {
  const { alwaysLoad, maxResults } = config.gateway.toolSearch;
  const key = JSON.stringify([alwaysLoad, maxResults]);
  const last = reduced.get(listing);
  if (last?.key === key) return last.tools;
  const loaded = listing.filter((tool) => {
    const owner = ownerOf(tool.name);
    return owner !== null && (alwaysLoad[owner.server]?.includes(owner.name) ?? false);
  });
  const tools = [...metaTools(maxResults), ...loaded];
  reduced.set(listing, { key, tools });
  return tools;
}

/**
 * What of `config` decides how `session`'s tools are listed besides its view: its search
 * mode and the search settings (a change is a `tools/list_changed` for it).
 */
export function searchListingKey(config: AppConfig, session: { bot: string | null; clientId: string | null }): string {
  const mode = toolSearchMode(config, session.bot, session.clientId);
  // Off, the search settings do not touch its list.
  if (mode === 'off') return mode;
  const { alwaysLoad, maxResults, autoThresholdTokens } = config.gateway.toolSearch;
  return JSON.stringify([mode, alwaysLoad, maxResults, mode === 'auto' ? autoThresholdTokens : null]);
}
