/**
 * Search mode for a session (issue 24): whether it is on, the listing the agent then gets,
 * and the index its `search_tools` asks. The tools are the session's full listing (the
 * view's, after permissions and quarantine, then the bot tools it is served): what is not
 * listed is never found.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { listBotItems } from '../bots/index.js';
import {
  isSearchOn,
  listingTokens,
  searchModeListing,
  type ToolHit,
  type ToolIndex,
  toolSearchMode,
} from '../search/index.js';
import type { AgentSession } from '../session/index.js';
import type { ServedView, ViewSpec } from '../views/index.js';
import type { CallPath } from './call-path.js';
import { withBotItems } from './with-bot-items.js';

/** A session in search mode: what it lists, and its view's index. */
export type SearchMode = { readonly listing: Tool[]; index(): ToolIndex };

const keyOf = (spec: ViewSpec): string =>
  spec.kind === 'all' ? 'all' : spec.kind === 'server' ? `server:${spec.server}` : `bot:${spec.slug}`;

/** Every tool the session may call, as a full `tools/list` lists them. */
export async function sessionTools(path: CallPath, session: AgentSession, served: ServedView): Promise<Tool[]> {
  return withBotItems(path, served.tools(), await listBotItems(path, session, served, 'tools')) as Tool[];
}

/** Search mode for `session` with `listing` (its full tool list); null when off. */
export function searchModeOf(
  path: CallPath,
  session: AgentSession,
  served: ServedView,
  listing: Tool[],
): SearchMode | null {
  const config = path.config();
  if (!isSearchOn(config, toolSearchMode(config, session.bot, session.clientId), listing)) return null;
  const ownerOf = (name: string) => served.view.tool(name);
  return {
    listing: searchModeListing(config, listing, ownerOf),
    index: () => path.toolSearch.of(keyOf(session.spec), listing, ownerOf),
  };
}

/** A search of a view's tools for the admin (`GET /api/tools/search`): not an agent's, not audited. */
export type ViewSearch = { readonly hits: ToolHit[]; readonly searched: number; readonly estimatedTokens: number };

/** Search `spec`'s view (its own tools, without bot tools) for `query`; an Error for a `regex:` that does not compile. */
export function searchView(path: CallPath, spec: ViewSpec, query: string, limit: number): ViewSearch | Error {
  const served = path.views.view(spec);
  const listing = served.tools();
  const index = path.toolSearch.of(`admin:${keyOf(spec)}`, listing, (name) => served.view.tool(name));
  const hits = index.search(query, limit);
  if (hits instanceof Error) return hits;
  return { hits, searched: index.size, estimatedTokens: listingTokens(listing) };
}
