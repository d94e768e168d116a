/**
 * Import other MCP clients' config files (SPEC A4, C1): Claude Desktop's
 * `claude_desktop_config.json`, Cursor's `~/.cursor/mcp.json`, VS Code's `.vscode/mcp.json` or
 * user `mcp.json` (`"servers"`, JSONC), or any file of those formats. Servers not yet in the
 * config are added under their own names; the others are reported, and replaced only with `force`.
 * @module
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { type EditConfigOptions, editConfig } from './edit-config.js';
import { isJsonObject } from './json-object.js';
import { readConfigText } from './load-config.js';
import { serversKeyOf } from './parse-config.js';
import { parseConfigJson } from './parse-config-json.js';
import { expandWorkspaceFolder, workspaceFolderOf } from './read-env-file.js';

/** The clients whose files `bnity mcp import --from` knows by name. */
export type ClientKind = 'claude-desktop' | 'cursor' | 'vscode';

/** The client kinds, for flag and body validation. */
export const CLIENT_KINDS: readonly ClientKind[] = Object.freeze(['claude-desktop', 'cursor', 'vscode']);

/** What an import did: names added, names already present (left alone), names replaced (with force). */
export type ImportResult = { added: string[]; skipped: string[]; replaced: string[] };

/**
 * Default config file path of a client on this OS (Linux, macOS). For VS Code, the workspace
 * file `./.vscode/mcp.json` when there is one, else the user `mcp.json`.
 */
export function clientConfigPath(kind: ClientKind, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME && env.HOME !== '' ? env.HOME : homedir();
  const mac = process.platform === 'darwin';
  const appSupport = join(home, 'Library', 'Application Support');
  const xdgConfig =
    env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, '.config');
  switch (kind) {
    case 'claude-desktop':
      return join(mac ? appSupport : xdgConfig, 'Claude', 'claude_desktop_config.json');
    case 'cursor':
      return join(home, '.cursor', 'mcp.json');
    case 'vscode': {
      const workspace = resolve('.vscode', 'mcp.json');
      return existsSync(workspace) ? workspace : join(mac ? appSupport : xdgConfig, 'Code', 'User', 'mcp.json');
    }
  }
}

/** The servers a client config file declares, as boternity server entries by name. Throws ConfigError naming the file. */
export async function readClientServers(path: string): Promise<Record<string, Record<string, unknown>>> {
  const raw = parseConfigJson(await readConfigText(path), path);
  const fail = (message: string) =>
    new ConfigError(`${path}: ${message}`, path, [{ server: null, field: '', message }]);
  if (!isJsonObject(raw)) throw fail('expected a JSON object');
  const key = serversKeyOf(raw);
  const servers = raw[key];
  if (servers === undefined) throw fail('no "mcpServers" (or VS Code "servers") in this file');
  if (!isJsonObject(servers)) throw fail(`"${key}" is not an object of servers by name`);
  const workspace = workspaceFolderOf(dirname(resolve(path)));
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, entry] of Object.entries(servers)) {
    if (!isJsonObject(entry)) throw fail(`${key}.${name}: expected an object`);
    out[name] = rebase(entry, workspace);
  }
  return out;
}

/**
 * Paths in an entry are relative to the client's file (VS Code: to its workspace folder):
 * made absolute, so that they mean the same from boternity's config file.
 */
function rebase(entry: Record<string, unknown>, workspace: string): Record<string, unknown> {
  const out = { ...entry };
  for (const field of ['cwd', 'envFile'] as const) {
    const value = out[field];
    if (typeof value !== 'string') continue;
    const expanded = expandWorkspaceFolder(value, workspace);
    out[field] = isAbsolute(expanded) ? expanded : resolve(workspace, expanded);
  }
  return out;
}

/** Add `servers` to the config file: { added, skipped (names already present), replaced (with force) }. */
export async function importServers(
  configPath: string,
  servers: Record<string, Record<string, unknown>>,
  options: { force?: boolean; env?: NodeJS.ProcessEnv } & EditConfigOptions = {},
): Promise<ImportResult> {
  let result: ImportResult = { added: [], skipped: [], replaced: [] };
  const { force = false, ...editOptions } = options;
  await editConfig(
    configPath,
    (doc) => {
      // Made again from the start when the file changed under the edit.
      result = { added: [], skipped: [], replaced: [] };
      for (const [name, entry] of Object.entries(servers)) {
        const present = doc.serverNames().includes(name);
        if (present && !force) {
          result.skipped.push(name);
          continue;
        }
        doc.setServer(name, entry);
        (present ? result.replaced : result.added).push(name);
      }
    },
    editOptions,
  );
  return result;
}
