/**
 * `bnity mcp add … --bot SLUG`: put the new server in that bot's `additionalServers`. Bots live
 * in the config file's `bots` section (SPEC C1), which the config editor's document does not
 * reach, so this edits that one key the same way: under the file's lock, with jsonc-parser's
 * `modify` (comments and the rest of the file kept), the whole file validated before it is
 * written atomically.
 * @module
 */
import { applyEdits, modify } from 'jsonc-parser';
import { parseConfigText, readConfigText } from '../config/load-config.js';
import { parseConfigJson } from '../config/parse-config-json.js';
import { withFileLock } from '../config/with-file-lock.js';
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
  await withFileLock(path, async () => {
    const text = await readConfigText(path);
    const bot = ((parseConfigJson(text, path) as Json).bots as Record<string, Json> | undefined)?.[slug];
    if (!bot) throw new HubError('unknown_bot', `bot "${slug}" is not configured in ${path}`);
    const current = Array.isArray(bot.additionalServers) ? (bot.additionalServers as unknown[]) : [];
    if (current.includes(server)) return;
    const indent = /\n([ \t]+)["/]/.exec(text)?.[1] ?? '  ';
    const formattingOptions = indent.startsWith('\t')
      ? { insertSpaces: false, tabSize: 1 }
      : { insertSpaces: true, tabSize: indent.length };
    const at = ['bots', slug, 'additionalServers'];
    const next = applyEdits(text, modify(text, at, [...current, server], { formattingOptions }));
    parseConfigText(next, path, env);
    await writeFileAtomic(path, next);
  });
}
