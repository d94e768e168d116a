/**
 * `bnity mcp add … --bot SLUG`: put the new server in that bot's `additionalServers`. Bots live
 * in the config file's `bots` section (SPEC C1); the change is one config edit like any other
 * (under the file's lock, on a valid file only, the whole file validated, written atomically,
 * made again if an editor saved the file meanwhile).
 * @module
 */
import { editBotView } from '../config/edit-bot-view.js';
import { editConfig } from '../config/edit-config.js';
import { parseConfigText, readConfigText } from '../config/load-config.js';
import { HubError } from '../errors.js';

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
  await editConfig(
    path,
    (doc) => {
      const bot = doc.getBot(slug);
      if (!bot) throw new HubError('unknown_bot', `bot "${slug}" is not configured in ${path}`);
      const current = Array.isArray(bot.additionalServers) ? bot.additionalServers : [];
      if (!current.includes(server)) doc.setBot(slug, editBotView(bot, { kind: 'add-server', server }));
    },
    { env },
  );
}
