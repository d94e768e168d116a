/**
 * The `instructions` an endpoint answers `initialize` (2025-11-25) and `server/discover`
 * (2026-07-28) with, as the seed's `get_info` does: a short summary of what it serves.
 * On `/mcp`, the servers of the view with their state and tool counts, and the bots the
 * caller reaches as tools; on `/mcp/bots/{slug}`, the bot's name and description, its
 * servers and its own tools. A server's endpoint says nothing of ours: it is a transparent
 * proxy and passes its upstream's instructions (`endpoint-identity.ts`).
 *
 * The text is bounded ({@link MAX_INSTRUCTIONS} characters; long lists end with "and N
 * more") and a bot's name and description, which API callers write, pass the sanitizer as
 * they do in the bot tools' descriptions (X4).
 * @module
 */
import type { BotSummary, BotToolsAccess } from '../../bots/ports.js';
import { sanitizeText } from '../../guard/sanitize-text.js';
import type { CallPath } from '../requests/index.js';
import type { ViewSpec } from '../views/index.js';

/** At most this many characters of instructions. */
export const MAX_INSTRUCTIONS = 2_000;

/** Servers shown before "and N more". */
const SERVERS_SHOWN = 20;
/** Bots shown on `/mcp` before "and N more" (list_bots has them all). */
const BOTS_SHOWN = 12;

/** `text` sanitized, on one line, cut to `maxLength` characters with an ellipsis. */
function clean(text: string, maxLength: number): string {
  const line = sanitizeText(text, { kind: 'description' }).text.replace(/\s+/g, ' ').trim();
  return line.length <= maxLength ? line : `${line.slice(0, maxLength - 1).trimEnd()}…`;
}

/** `items` joined, the first `shown` of them, then how many more. */
function listed(items: readonly string[], shown: number): string {
  const text = items.slice(0, shown).join(', ');
  return items.length > shown ? `${text} and ${items.length - shown} more` : text;
}

/** One server of the view as the summary names it: `fs (connected, 14 tools)`. */
function serverLine(path: Pick<CallPath, 'hub'>, name: string): string {
  try {
    const status = path.hub.getServer(name);
    return status.state === 'connected'
      ? `${name} (connected, ${status.toolCount} tools)`
      : `${name} (${status.state})`;
  } catch {
    return `${name} (not started)`;
  }
}

/** A bot's slug, name and the start of its description (`descriptionChars` at most). */
const botLabel = (bot: BotSummary, descriptionChars: number): string => {
  const name = clean(bot.name, 100);
  const description = clean(bot.description, descriptionChars);
  return `${bot.slug} ("${name}"${description ? `: ${description}` : ''})`;
};

/** Cut `text` to {@link MAX_INSTRUCTIONS} characters, on a word when it must. */
function bounded(text: string): string {
  if (text.length <= MAX_INSTRUCTIONS) return text;
  const cut = text.slice(0, MAX_INSTRUCTIONS - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX_INSTRUCTIONS / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * The instructions of the endpoint serving `spec` to a caller who reaches `bots` (null: no
 * bot tools are served to it); undefined for a server's endpoint.
 */
export function endpointInstructions(
  path: Pick<CallPath, 'hub' | 'views'>,
  spec: ViewSpec,
  bots: readonly BotSummary[] | null,
): string | undefined {
  if (spec.kind === 'server') return undefined;
  const servers = path.views.view(spec).servers;
  const serversText =
    servers.length === 0
      ? 'No MCP servers are configured for it yet.'
      : `Its MCP servers (${servers.length}): ${listed(
          servers.map((s) => serverLine(path, s)),
          SERVERS_SHOWN,
        )}. Their tools, resources and prompts are named {server}__{name}.`;
  if (spec.kind === 'bot') {
    const bot = bots?.find((b) => b.slug === spec.slug);
    const who = bot ? `bot ${botLabel(bot, 600)}` : `bot ${spec.slug}`;
    const own = bot
      ? ' Its own tools: chat (talk to the bot, which answers with its LLM and may use these servers), get_memories, add_memory, list_skills, get_bot, trigger_workflow; its skills are prompts named {skill}.'
      : ' It has no profile in the registry (a view of the config file only): no bot tools of its own.';
    return bounded(`boternity: the endpoint of ${who}. ${serversText}${own}`);
  }
  const botsText =
    bots === null
      ? ''
      : bots.length === 0
        ? ' No bots yet (create_bot makes one).'
        : ` Bots (${bots.length}), each served as tools chat__{slug}, get_memories__{slug}, add_memory__{slug} and list_skills__{slug}, with its skills as prompts {slug}__{skill}: ${listed(
            bots.map((b) => botLabel(b, 60)),
            BOTS_SHOWN,
          )}. list_bots, get_bot and trigger_workflow take a slug.`;
  return bounded(`boternity: an MCP gateway. ${serversText}${botsText}`);
}

/** The registry's bots `access` reaches (null: no bot tools are served, or they could not be read). */
export async function reachedBots(
  path: Pick<CallPath, 'bots' | 'log'>,
  access: BotToolsAccess | null | undefined,
): Promise<BotSummary[] | null> {
  if (!access || !path.bots) return null;
  try {
    return await path.bots.tools.bots(access);
  } catch (error) {
    // The summary is a courtesy: a session opens without it rather than failing.
    path.log.debug({ err: error }, 'bots left out of the instructions');
    return null;
  }
}
