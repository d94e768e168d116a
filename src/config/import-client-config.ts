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
import { type ConfigDocument, type ConfigEdit, type EditConfigOptions, editConfig } from './edit-config.js';
import { isJsonObject } from './json-object.js';
import { readConfigText } from './load-config.js';
import { type MovedSecret, moveSecretEnv } from './move-secret-env.js';
import { serversKeyOf } from './parse-config.js';
import { parseConfigJson } from './parse-config-json.js';
import { expandWorkspaceFolder, workspaceFolderOf } from './read-env-file.js';
import { SERVER_NAME } from './schema.js';

/** The clients whose files `bnity mcp import --from` knows by name. */
export type ClientKind = 'claude-desktop' | 'cursor' | 'vscode';

/** The client kinds, for flag and body validation. */
export const CLIENT_KINDS: readonly ClientKind[] = Object.freeze(['claude-desktop', 'cursor', 'vscode']);

/** What an import did: names added, names already present (left alone), names replaced (with force), secrets moved. */
export type ImportResult = {
  /** Names other clients allow but boternity does not (`"Brave Search"`), and what they were imported as. */
  renamed: { from: string; to: string }[];
  added: string[];
  skipped: string[];
  replaced: string[];
  /** Env values moved to the keystore: where they were and the entry that holds them (never the value). */
  movedSecrets: Omit<MovedSecret, 'value'>[];
};

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

/** Where imported secrets go: the keystore (its `set`). */
export type SecretStash = { set(name: string, secret: string): Promise<void> };

/** Options of {@link importServers}. */
export type ImportOptions = {
  force?: boolean;
  env?: NodeJS.ProcessEnv;
  /** The keystore: secret-looking env values move there (none: they stay inline). */
  keystore?: SecretStash | null;
  /** Keep secret-looking env values in the config file (`--keep-secrets-inline`). */
  keepSecretsInline?: boolean;
  /** Makes the edit (default: {@link editConfig} of the file; cluster mode: a new version in the database). */
  editWith?: (change: (doc: ConfigDocument) => void, options: EditConfigOptions) => Promise<ConfigEdit>;
} & EditConfigOptions;

/**
 * Add `servers` to the config file: { added, skipped (names already present), replaced (with
 * force), movedSecrets }. Unless kept inline, the secret-looking env values of the servers
 * written go to the keystore just before the file is written, and the file gets references to them.
 */
export async function importServers(
  configPath: string,
  servers: Record<string, Record<string, unknown>>,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const { force = false, keystore = null, keepSecretsInline = false, editWith, ...editOptions } = options;
  const edit = editWith ?? ((change, opts) => editConfig(configPath, change, opts));
  const { named, renamed } = validNames(servers);
  const moving = keystore && !keepSecretsInline ? moveSecretEnv(named) : { servers: named, moved: [] };
  let result: ImportResult = { renamed, added: [], skipped: [], replaced: [], movedSecrets: [] };
  await edit(
    (doc) => {
      // Made again from the start when the file changed under the edit.
      result = { renamed, added: [], skipped: [], replaced: [], movedSecrets: [] };
      for (const [name, entry] of Object.entries(moving.servers)) {
        const present = doc.serverNames().includes(name);
        if (present && !force) {
          result.skipped.push(name);
          continue;
        }
        doc.setServer(name, entry);
        (present ? result.replaced : result.added).push(name);
        for (const { server, variable, credential } of moving.moved)
          if (server === name) result.movedSecrets.push({ server, variable, credential });
      }
    },
    {
      ...editOptions,
      // Once the file is valid and before it is written, under its lock: the secrets of the
      // servers it writes are stored first (a skipped server's keystore entries stay as they are).
      beforeWrite: async () => {
        await editOptions.beforeWrite?.();
        const stored = new Set(result.movedSecrets.map((m) => m.credential));
        for (const secret of moving.moved)
          if (stored.has(secret.credential)) await keystore?.set(secret.credential, secret.value);
      },
    },
  );
  return result;
}

/**
 * The servers under names boternity takes (`SERVER_NAME`: they prefix tool names and make
 * URLs). Other clients take any key: `"Brave Search"` is imported as `Brave-Search`,
 * `"@org/tool"` as `org-tool` — each run of other characters one `-`, cut to 48 — and a name
 * taken by another server of the same import gets `-2`, `-3` …; the same file always maps
 * the same way.
 */
export function validNames(servers: Record<string, Record<string, unknown>>): {
  named: Record<string, Record<string, unknown>>;
  renamed: { from: string; to: string }[];
} {
  const named: Record<string, Record<string, unknown>> = {};
  const renamed: { from: string; to: string }[] = [];
  const valid = Object.keys(servers).filter((name) => SERVER_NAME.test(name));
  const taken = new Set(valid);
  for (const [name, entry] of Object.entries(servers)) {
    if (SERVER_NAME.test(name)) {
      named[name] = entry;
      continue;
    }
    const base =
      name
        .replace(/[^A-Za-z0-9_.-]+/g, '-')
        .replace(/^[^A-Za-z0-9]+/, '')
        .slice(0, 48)
        .replace(/-+$/, '') || 'server';
    let to = base;
    for (let n = 2; taken.has(to); n++) to = `${base.slice(0, 48 - String(n).length - 1)}-${n}`;
    taken.add(to);
    named[to] = entry;
    renamed.push({ from: name, to });
  }
  return { named, renamed };
}
