/**
 * The bot tools and skill prompts a session is served beside its view (G8), and how a name
 * is settled when both could claim it: the view's own items win. A bot name is left out
 * (and routes to the upstream) when a listed upstream item has it, or when it starts with
 * the `{server}__` prefix of a server in the view, connected or not. Bot slugs come from API
 * callers, server names from the operator: a new bot can never shadow a server's tool.
 * @module
 */
import type { Prompt, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { BotSurface, CallPath } from '../requests/index.js';
import type { AgentSession } from '../session/index.js';
import type { ServedView } from '../views/index.js';
import { toPublicName } from '../views/index.js';

type Kind = 'tools' | 'prompts';
type Items = { tools: Tool[]; prompts: Prompt[] };

/** Whether `name` is the view's: an item it routes, or under the prefix of one of its servers. */
export function isViewName(served: ServedView, kind: Kind, name: string): boolean {
  const routed = kind === 'tools' ? served.view.tool(name) : served.view.prompt(name);
  return routed !== null || served.servers.some((server) => name.startsWith(toPublicName(server, '')));
}

/**
 * The bots to ask for `name`, which the view does not route: only for a caller with bot
 * access, and never for a name the view holds (its items win).
 */
export function botsFor(
  path: CallPath,
  session: AgentSession,
  served: ServedView,
  kind: Kind,
  name: string,
): BotSurface | null {
  return path.bots && session.botAccess && !isViewName(served, kind, name) ? path.bots : null;
}

/** The bot items of `kind` served to `session` (none without bot access), minus names the view holds. */
export async function listBotItems<K extends Kind>(
  path: CallPath,
  session: AgentSession,
  served: ServedView,
  kind: K,
): Promise<Items[K]> {
  const access = session.botAccess;
  if (!access || !path.bots) return [];
  const items: (Tool | Prompt)[] =
    kind === 'tools' ? await path.bots.tools.list(access) : await path.bots.prompts.list(access);
  const kept = items.filter((item) => !isViewName(served, kind, item.name));
  // The bots' own array when nothing is left out: the listing built from it is then reused.
  if (kept.length === items.length) return items as Items[K];
  path.log.debug(
    { session: session.id, shadowed: items.filter((i) => !kept.includes(i)).map((i) => i.name) },
    'bot items left out: the view has those names',
  );
  return kept as Items[K];
}
