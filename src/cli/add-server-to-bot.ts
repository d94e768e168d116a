/**
 * `bnity mcp add … --bot SLUG`: put the new server in that bot's view. A bot's view lives in
 * the config file's `bots.{slug}` (SPEC C1, docs/bots.md) whichever place the bot came from,
 * so a bot of the registry alone (made with `bnity bot create`) gets its entry there, as
 * `bnity bot servers add` gives it: the edit is the same route (`POST
 * /api/bots/{slug}/servers/{server}`), through the service or in-process on the files.
 *
 * What every bot sees is read before and after, and the change is told exactly: the bot's
 * servers now and before, and any other bot whose servers changed (a server a bot adds is
 * opt-in: only the bots that add it see it), so no bot loses a server silently.
 * @module
 */
import { ServiceUnreachableError, UnknownBotError } from '../errors.js';
import type { BotDetail } from '../http/api/index.js';
import { offlineBotRequest } from './bot-offline.js';
import type { Target } from './resolve-target.js';

/** How one bot's servers changed. */
export type ViewChange = { slug: string; before: string[]; after: string[]; gained: string[]; lost: string[] };

/** What adding a server to a bot changed: that bot's servers, and those of any other bot that changed. */
export type BotViewReport = { bot: ViewChange; others: ViewChange[] };

/** Where the bots' API was answered: the service, or this process on the files. */
export type Via = 'service' | 'file';

/** Call the bots' API (`path` under `/api/bots`) where `via` says. */
function botRequest<T>(target: Target, via: Via, method: string, path: string): Promise<T> {
  const full = `/api/bots${path}`;
  return via === 'service' ? target.client.request<T>(method, full) : offlineBotRequest<T>(target, method, full);
}

/** What every bot sees now, by slug (bots of the registry and of the config file). */
export type BotServers = { via: Via; servers: Map<string, string[]> };

const toMap = ({ bots }: { bots: BotDetail[] }) => new Map(bots.map((b) => [b.slug, b.servers]));

/**
 * What every bot sees, from the service or (none answering at the default URL) the files;
 * `bot "x" does not exist` unless `slug` is a bot in the registry or the config file. Says
 * nothing on stderr: the add that follows says where it worked.
 */
export async function readBotServers(target: Target, slug: string): Promise<BotServers> {
  let found: BotServers;
  try {
    found = { via: 'service', servers: toMap(await botRequest(target, 'service', 'GET', '')) };
  } catch (error) {
    if (!(error instanceof ServiceUnreachableError) || target.client.explicit) throw error;
    found = { via: 'file', servers: toMap(await botRequest(target, 'file', 'GET', '')) };
  }
  if (!found.servers.has(slug)) throw new UnknownBotError(slug);
  return found;
}

const change = (slug: string, before: string[], after: string[]): ViewChange => ({
  slug,
  before,
  after,
  gained: after.filter((s) => !before.includes(s)),
  lost: before.filter((s) => !after.includes(s)),
});

/**
 * Add `server` (configured by now) to bot `slug`'s view (`POST`), or take it out (`DELETE`),
 * and say what changed since `before`.
 */
export async function addServerToBot(
  target: Target,
  before: BotServers,
  slug: string,
  server: string,
  method: 'POST' | 'DELETE' = 'POST',
): Promise<BotViewReport> {
  const { via } = before;
  await botRequest(target, via, method, `/${encodeURIComponent(slug)}/servers/${encodeURIComponent(server)}`);
  const after = toMap(await botRequest<{ bots: BotDetail[] }>(target, via, 'GET', ''));
  const was = (bot: string) => before.servers.get(bot) ?? [];
  const others = [...after.entries()]
    .filter(([other]) => other !== slug)
    .map(([other, now]) => change(other, was(other), now))
    .filter((c) => c.gained.length > 0 || c.lost.length > 0);
  return { bot: change(slug, was(slug), after.get(slug) ?? []), others };
}

const names = (list: readonly string[]) => list.join(', ') || 'no servers';

/**
 * The report for people: one line for the bot, one per other bot that changed; after an
 * add (`added`), a line saying whether other bots see the server.
 */
export function describeViewReport({ bot, others }: BotViewReport, server: string, added = true): string {
  const lost = bot.lost.length > 0 ? `; no longer sees: ${names(bot.lost)}` : '';
  const lines = [
    `bot "${bot.slug}" now sees ${bot.after.length}: ${names(bot.after)} (before ${bot.before.length}: ${names(bot.before)}${lost})`,
  ];
  for (const other of others) {
    const parts = [
      ...(other.lost.length > 0 ? [`no longer sees: ${names(other.lost)}`] : []),
      ...(other.gained.length > 0 ? [`now also sees: ${names(other.gained)}`] : []),
    ];
    lines.push(`bot "${other.slug}" ${parts.join('; ')}`);
  }
  if (added && others.every((o) => !o.gained.includes(server)))
    lines.push(`other bots do not see "${server}": a server a bot adds is only in the views of the bots that add it`);
  return lines.join('\n');
}
