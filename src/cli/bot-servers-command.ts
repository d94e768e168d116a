/**
 * `bnity bot servers add|remove SLUG SERVER`: the one bot verb that reports more than its
 * answer. What every bot sees is read before and after and the change told, since adding a
 * server to one bot's view makes it opt-in for all: another bot that saw it as a default
 * server no longer does, and must not lose it silently.
 * @module
 */
import { addServerToBot, describeViewReport, readBotServers } from './add-server-to-bot.js';
import type { Target } from './resolve-target.js';

/** Add `server` to bot `slug`'s view (`POST`) or take it out (`DELETE`), printing what every bot sees now. */
export async function changeBotServers(target: Target, method: 'POST' | 'DELETE', slug: string, server: string) {
  const before = await readBotServers(target, slug);
  const report = await addServerToBot(target, before, slug, server, method);
  if (before.via === 'file')
    process.stderr.write(`bnity: no service at ${target.client.baseUrl}; worked on the files in ${target.home}\n`);
  process.stdout.write(
    target.json
      ? `${JSON.stringify({ via: before.via, views: report }, null, 2)}\n`
      : `${method === 'POST' ? 'added' : 'removed'} server "${server}" ${method === 'POST' ? 'to' : 'from'} bot "${slug}"\n${describeViewReport(report, server, method === 'POST')}\n`,
  );
  return 0;
}
