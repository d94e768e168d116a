/**
 * The pre-spawn (ADR 032): `bin/bnity.js` runs this before the bundle loads, for `bnity serve`
 * only. It finds the config file as the CLI does, reads it as plain JSON and starts the
 * stdio servers whose entries are simple and certain, with {@link spawnStdio}: their start
 * (a node process and its SDK, about 450 ms) then overlaps ours instead of following it.
 * The service adopts a child only if it would spawn exactly it (ADR 032), and ends the rest.
 * Anything uncertain (another command line, another file format, interpolation, a preset, a
 * credential, an unknown key) means no pre-spawn: the service spawns as it always did.
 * Only node built-ins are loaded here: no zod, no commander.
 * @module
 */
import { readFileSync } from 'node:fs';
import { resolveConfigPath, resolveHome } from '../config/resolve-paths.js';
import { isClusterDatabase } from '../storage/database-url.js';
import { createPrespawned, createStderrRelay, type Prespawned, type PrespawnedChild } from '../upstream/prespawned.js';
import { type SpawnStdioOptions, spawnKey, spawnStdio } from '../upstream/spawn-stdio.js';

/** The flags of `bnity serve`, each taking a value (`--port 0` or `--port=0`). */
const SERVE_FLAGS = new Set(['--config', '--home', '--host', '--port']);

/**
 * Keys of a stdio entry that leave its spawn as the entry says: the service's only other
 * effects on it are the supervision's. Any other key (`preset`, `credentialKey`, `envFile`,
 * `url`, unknown ones) means the entry is not pre-spawned.
 */
const PLAIN_KEYS = new Set([
  'type',
  'command',
  'args',
  'env',
  'cwd',
  'enabled',
  'disabled',
  'allowedTools',
  'deniedTools',
  'samplingBudgetTokens',
  'sampling',
  'scope',
  'healthIntervalMs',
  'pingTimeoutMs',
  'livenessCheckAfterMs',
  'livenessTimeoutMs',
  'connectTimeoutMs',
  'requestTimeoutMs',
  'timeout',
  'maxConcurrentRequests',
  'maxMessageBytes',
  'maxAnswerBytes',
  'backoff',
  'notificationRate',
  'autoApprove',
  'alwaysAllow',
]);

/** Options of {@link prespawn}. */
export type PrespawnOptions = {
  /** The command line without node and script. */
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
};

/** Start the certain stdio servers of `bnity serve`'s config now; null when none was started. */
export async function prespawn({ argv, env }: PrespawnOptions): Promise<Prespawned | null> {
  if (env.BOTERNITY_PRESPAWN === '0') return null;
  const flags = serveFlags(argv);
  if (flags === null) return null;
  let servers: unknown;
  try {
    const home = resolveHome({ ...(flags.home ? { home: flags.home } : {}), env });
    const { path } = resolveConfigPath({ ...(flags.config ? { config: flags.config } : {}), home, env });
    const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!isObject(raw)) return null;
    // Cluster mode (ADR 040): the database's config says which servers run, not this file.
    const database = isObject(raw.database) && typeof raw.database.url === 'string' ? raw.database.url : undefined;
    if (isClusterDatabase(home, env, database)) return null;
    servers = raw.mcpServers;
  } catch {
    // No file yet (the service writes a default one), JSONC, or unreadable: the service says.
    return null;
  }
  if (!isObject(servers)) return null;
  const children = new Map<string, PrespawnedChild>();
  // All at once: each spawn waits a few turns of the loop for its stdout socket.
  await Promise.all(
    Object.entries(servers).map(async ([name, entry]) => {
      const config = plainStdio(entry);
      const key = config && spawnKey(config);
      if (!config || !key) return;
      const relay = createStderrRelay();
      try {
        const child = await spawnStdio({ config, stderr: relay, onSpawn: () => undefined });
        if (child.pid !== null) children.set(name, { key, child, relay });
      } catch {
        // The service's own spawn reports it, with the server's name.
      }
    }),
  );
  return children.size === 0 ? null : createPrespawned(children);
}

/** `--config` and `--home` of a `bnity serve` command line; null for any other command line. */
export function serveFlags(argv: readonly string[]): { config?: string; home?: string } | null {
  if (argv[0] !== 'serve') return null;
  const values = new Map<string, string>();
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    if (!SERVE_FLAGS.has(flag) || values.has(flag)) return null;
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('-'))) return null;
    values.set(flag, value);
  }
  const config = values.get('--config');
  const home = values.get('--home');
  return { ...(config === undefined ? {} : { config }), ...(home === undefined ? {} : { home }) };
}

/** The spawn of a stdio entry that is simple and certain (see {@link PLAIN_KEYS}), else null. */
export function plainStdio(entry: unknown): SpawnStdioOptions['config'] | null {
  if (!isObject(entry) || !Object.keys(entry).every((key) => PLAIN_KEYS.has(key))) return null;
  const { type, command, args = [], env = {}, cwd, enabled = true, disabled = false, scope = 'shared' } = entry;
  if (type !== undefined && type !== 'stdio') return null;
  if (enabled !== true || disabled !== false || scope !== 'shared') return null;
  if (!isText(command) || command === '' || (cwd !== undefined && (!isText(cwd) || cwd === ''))) return null;
  if (!Array.isArray(args) || !args.every(isText)) return null;
  if (!isObject(env) || !Object.entries(env).every(([name, value]) => isText(name) && isText(value))) return null;
  return {
    command,
    args: args as string[],
    env: env as Record<string, string>,
    ...(cwd === undefined ? {} : { cwd: cwd as string }),
  };
}

/** A string the service would hand a child as it is: no `${…}` to interpolate, no NUL. */
function isText(value: unknown): value is string {
  return typeof value === 'string' && !value.includes('${') && !value.includes('\0');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
