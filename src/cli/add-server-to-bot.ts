/**
 * `bnity mcp add … --bot SLUG`: put the new server in that bot's `additionalServers`. Bots live
 * in the config file's `bots` section (SPEC C1), which the config editor's document does not
 * reach, so this edits that one key: the whole file is validated before it is written
 * atomically, and every other key keeps its value and order.
 * @module
 */
import { parseConfigText, readConfigText } from '../config/load-config.js';
import { parseConfigJson } from '../config/parse-config-json.js';
import { writeFileAtomic } from '../config/write-file-atomic.js';
import { HubError } from '../errors.js';

type Json = Record<string, unknown>;

/** Throw unless `slug` is a bot of the config at `path`. */
export async function assertBot(path: string, slug: string, env: NodeJS.ProcessEnv): Promise<void> {
  const config = parseConfigText(await readConfigText(path), path, env);
  if (!config.bots[slug])
    throw new HubError('unknown_bot', `bot "${slug}" is not configured in ${path}: add it to the "bots" section first`);
}

/** Add `server` to `bots[slug].additionalServers` in the file at `path` (once). */
export async function addServerToBot(
  path: string,
  slug: string,
  server: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const text = await readConfigText(path);
  const raw = parseConfigJson(text, path) as Json;
  const bots = raw.bots as Record<string, Json> | undefined;
  const bot = bots?.[slug];
  if (!bot) throw new HubError('unknown_bot', `bot "${slug}" is not configured in ${path}`);
  const current = Array.isArray(bot.additionalServers) ? (bot.additionalServers as unknown[]) : [];
  if (current.includes(server)) return;
  bot.additionalServers = [...current, server];
  const next = `${JSON.stringify(raw, null, indentOf(text))}\n`;
  parseConfigText(next, path, env);
  await writeFileAtomic(path, next);
}

/** The indentation the file uses (2 spaces if it cannot tell). */
function indentOf(text: string): string | number {
  return /\n([ \t]+)"/.exec(text)?.[1] ?? 2;
}
