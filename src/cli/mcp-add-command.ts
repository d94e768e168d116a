/**
 * `bnity mcp add NAME -- COMMAND ARGS…` / `--url URL` / `--preset P [-- ARGS…]`: add a server
 * through the running service and wait for its first state (`connected, 13 tools` or the
 * error), or, with no service, add it to the config file and say so.
 * @module
 */
import { checkPresetRequirements, resolvePreset } from '../config/presets.js';
import { SERVER_NAME } from '../config/schema.js';
import { UsageError } from '../errors.js';
import type { ServerStatus } from '../hub/server-status.js';
import { addServerToBot, type BotViewReport, describeViewReport, readBotServers } from './add-server-to-bot.js';
import { parsePairs } from './parse-values.js';
import { resolveTarget } from './resolve-target.js';
import { serviceOrFile } from './service-or-file.js';
import { describeState, waitFirstState } from './wait-first-state.js';

/** The flags of `bnity mcp add`. */
export type AddFlags = {
  url?: string;
  transport?: string;
  header?: string[];
  env?: string[];
  preset?: string;
  credentialKey?: string;
  bot?: string;
  serviceUrl?: string;
  home?: string;
  config?: string;
  json?: boolean;
  wait: boolean;
};

/** Run `bnity mcp add`. */
export async function mcpAddCommand(
  name: string,
  command: readonly string[],
  flags: AddFlags,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const entry = serverEntry(name, command, flags);
  const target = await resolveTarget(
    { url: flags.serviceUrl, home: flags.home, config: flags.config, json: flags.json },
    env,
  );
  // A bot that does not exist stops the command before anything is added; what every bot
  // sees is read first, to say what the add changed.
  const before = flags.bot ? await readBotServers(target, flags.bot) : null;
  const { via, value: status } = await serviceOrFile<ServerStatus | null>(
    target,
    async () => {
      const post = () => target.client.request('POST', '/api/servers', { name, ...entry });
      if (flags.wait) return waitFirstState(target.client, name, post, { label: `adding ${name}` });
      await post();
      return null;
    },
    async () => {
      if (flags.preset) checkPresetRequirements(flags.preset, entry, env);
      const { editDesiredConfig } = await import('./edit-desired-config.js');
      const where = await editDesiredConfig(target, (doc) => doc.addServer(name, entry));
      return { value: null, note: `added "${name}" to ${where}` };
    },
  );
  const views: BotViewReport | null =
    flags.bot && before ? await addServerToBot(target, before, flags.bot, name) : null;
  if (target.json)
    process.stdout.write(
      `${JSON.stringify({ name, via, server: status ?? entry, ...(views ? { views } : {}) }, null, 2)}\n`,
    );
  else
    process.stdout.write(
      `added server "${name}"${flags.bot ? ` (and to bot "${flags.bot}")` : ''}${status ? `: ${describeState(status)}` : ''}\n${views ? `${describeViewReport(views, name)}\n` : ''}`,
    );
  // Waiting for an OAuth authorization is the next step, said above ('bnity mcp auth NAME'), not a failure.
  if (status && !['connected', 'connecting', 'needs_authorization'].includes(status.state)) {
    process.stderr.write(`bnity: "${name}" was added but did not connect: see 'bnity mcp status ${name}'\n`);
    return 1;
  }
  return 0;
}

/** The config entry the flags describe; a contradiction or a bad value is a usage error. */
function serverEntry(name: string, command: readonly string[], flags: AddFlags): Record<string, unknown> {
  if (!SERVER_NAME.test(name))
    throw new UsageError(
      `invalid server name "${name}": use up to 48 letters, digits, "_", "." or "-", starting with a letter or digit`,
    );
  const env = parsePairs(flags.env, '=', '--env');
  const headers = parsePairs(flags.header, ':', '--header');
  const common = {
    ...(flags.credentialKey ? { credentialKey: flags.credentialKey } : {}),
  };
  if (flags.url !== undefined) {
    if (command.length > 0 || flags.preset)
      throw new UsageError('give --url, --preset or a command after --, not two of them');
    if (flags.env) throw new UsageError('--env is for a command; a remote server takes --header');
    if (flags.transport !== undefined && flags.transport !== 'http' && flags.transport !== 'sse')
      throw new UsageError(`--transport must be http or sse, got "${flags.transport}"`);
    return {
      url: flags.url,
      ...(flags.transport ? { type: flags.transport } : {}),
      ...(flags.header ? { headers } : {}),
      ...common,
    };
  }
  if (flags.transport !== undefined || flags.header) throw new UsageError('--transport and --header go with --url');
  if (flags.preset !== undefined) {
    if (!resolvePreset(flags.preset))
      throw new UsageError(`unknown preset "${flags.preset}": 'bnity mcp presets' lists them`);
    return { preset: flags.preset, args: [...command], ...(flags.env ? { env } : {}), ...common };
  }
  const [program, ...args] = command;
  if (program === undefined)
    throw new UsageError(`'bnity mcp add ${name}' needs a command after --, --url URL or --preset P`);
  return { command: program, args, ...(flags.env ? { env } : {}), ...common };
}
