/**
 * Bundled presets (SPEC C7): `{"preset": "filesystem", "args": ["/some/dir"]}` instead of a
 * launch command. Servers installed with boternity run with this Node by absolute path (no
 * npx, no network); the others use their usual `npx -y …` / `uvx …` command, or a URL.
 * Each preset says what it needs (arguments, environment variables, a credential), and
 * `checkPresetRequirements` refuses an add that lacks one, in one line saying how to supply it.
 * @module
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { HubError } from '../errors.js';

/** What a preset needs from the user: arguments (described), environment variables, a credential name. */
export type PresetNeeds = { readonly args?: string; readonly env?: readonly string[]; readonly credential?: string };

/** How to launch a preset's server: a command (stdio) or a URL; `env` values may hold `${env:VAR}` references. */
export type Preset = {
  readonly command?: string;
  readonly args: string[];
  readonly url?: string;
  readonly type?: 'http' | 'sse';
  readonly env?: Record<string, string>;
  readonly description: string;
};

/** A preset as listed by `listPresets()`: `installed` ones launch without a download. */
export type PresetInfo = Preset & {
  readonly name: string;
  readonly package: string;
  readonly installed: boolean;
  readonly needs: PresetNeeds;
};

type PresetDefinition = {
  readonly description: string;
  /** The npm or PyPI package, or the URL of a remote server. */
  readonly package: string;
  readonly runner: 'bundled' | 'npx' | 'uvx' | 'remote';
  readonly needs?: PresetNeeds;
};

const PRESETS: Readonly<Record<string, PresetDefinition>> = Object.freeze({
  memory: {
    description: 'Knowledge-graph memory kept in a JSONL file (set MEMORY_FILE_PATH)',
    package: '@modelcontextprotocol/server-memory',
    runner: 'bundled',
  },
  filesystem: {
    description: 'Read, write and search files under the directories given as arguments',
    package: '@modelcontextprotocol/server-filesystem',
    runner: 'bundled',
    needs: { args: 'one or more directories to serve' },
  },
  everything: {
    description: 'MCP reference server exercising tools, resources, prompts and sampling',
    package: '@modelcontextprotocol/server-everything',
    runner: 'bundled',
  },
  fetch: {
    description: 'Fetch a URL and return it as markdown (needs uv)',
    package: 'mcp-server-fetch',
    runner: 'uvx',
  },
  git: {
    description: 'Read and search a Git repository; add args ["--repository", "/path"] (needs uv)',
    package: 'mcp-server-git',
    runner: 'uvx',
  },
  github: {
    description: "GitHub's remote MCP server: repositories, issues, pull requests (a personal access token)",
    package: 'https://api.githubcopilot.com/mcp/',
    runner: 'remote',
    needs: { credential: 'github-token' },
  },
  postgres: {
    description: 'Read-only SQL on PostgreSQL',
    package: '@modelcontextprotocol/server-postgres',
    runner: 'npx',
    needs: { args: 'the connection URL (postgresql://user@host/db)' },
  },
  sqlite: {
    description: 'Query and change a SQLite database file (needs uv)',
    package: 'mcp-server-sqlite',
    runner: 'uvx',
    needs: { args: '--db-path FILE' },
  },
  'sequential-thinking': {
    description: 'Step-by-step problem solving through a thought sequence',
    package: '@modelcontextprotocol/server-sequential-thinking',
    runner: 'npx',
  },
  time: {
    description: 'Current time and time-zone conversion (needs uv)',
    package: 'mcp-server-time',
    runner: 'uvx',
  },
  slack: {
    description: 'Slack channels, messages and users',
    package: '@modelcontextprotocol/server-slack',
    runner: 'npx',
    needs: { env: ['SLACK_BOT_TOKEN', 'SLACK_TEAM_ID'] },
  },
  'brave-search': {
    description: 'Web and local search with the Brave Search API',
    package: '@modelcontextprotocol/server-brave-search',
    runner: 'npx',
    needs: { env: ['BRAVE_API_KEY'] },
  },
  playwright: {
    description: 'Drive a browser with Playwright: navigate, click, fill, snapshot',
    package: '@playwright/mcp',
    runner: 'npx',
  },
  puppeteer: {
    description: 'Drive a Chromium browser with Puppeteer: navigate, screenshot, click, fill',
    package: '@modelcontextprotocol/server-puppeteer',
    runner: 'npx',
  },
});

/** The names of all presets, sorted. */
export function presetNames(): string[] {
  return Object.keys(PRESETS).sort();
}

/** The launch recipe of a preset, or null if there is no preset of that name. */
export function resolvePreset(name: string): Preset | null {
  if (!Object.hasOwn(PRESETS, name)) return null;
  const { name: _name, package: _package, installed: _installed, needs: _needs, ...preset } = describePreset(name);
  return preset;
}

/** Every preset with its launch and needs, sorted by name. */
export function listPresets(): PresetInfo[] {
  return presetNames().map((name) => describePreset(name));
}

/**
 * Throws a HubError('bad_request', one line naming what is missing and how to supply it) when
 * a preset's requirement is not met. An environment variable counts when the entry's `env` or
 * `env` (the environment the server will be started from) has it.
 */
export function checkPresetRequirements(
  name: string,
  entry: { args?: string[]; env?: Record<string, string>; credentialKey?: string },
  env: NodeJS.ProcessEnv = process.env,
): void {
  const def = Object.hasOwn(PRESETS, name) ? PRESETS[name] : undefined;
  if (def === undefined)
    throw new HubError('bad_request', `unknown preset ${JSON.stringify(name)} (known: ${presetNames().join(', ')})`);
  const needs = def.needs ?? {};
  if (needs.credential !== undefined && !entry.credentialKey) {
    const key = needs.credential;
    throw new HubError(
      'bad_request',
      `preset ${name} needs a credential: bnity mcp credential set ${key}, then --credential-key ${key}`,
    );
  }
  const missing = (needs.env ?? []).filter((variable) => !entry.env?.[variable] && !env[variable]);
  if (missing.length > 0) {
    const flags = missing.map((variable) => `--env ${variable}=…`).join(' ');
    const what = missing.length === 1 ? 'the environment variable' : 'the environment variables';
    throw new HubError(
      'bad_request',
      `preset ${name} needs ${what} ${missing.join(', ')}: add ${flags} (or set ${missing.length === 1 ? 'it' : 'them'} in the service's environment)`,
    );
  }
  if (needs.args !== undefined && (entry.args ?? []).length === 0) {
    throw new HubError(
      'bad_request',
      `preset ${name} needs arguments: ${needs.args} (bnity mcp add NAME --preset ${name} -- ${needs.args.startsWith('-') ? needs.args : 'ARGS…'})`,
    );
  }
}

function describePreset(name: string): PresetInfo {
  const def = PRESETS[name] as PresetDefinition;
  const needs = def.needs ?? {};
  const common = { name, package: def.package, description: def.description, needs };
  if (def.runner === 'remote') return { ...common, installed: true, url: def.package, type: 'http', args: [] };
  const env = needs.env ? Object.fromEntries(needs.env.map((v) => [v, `\${env:${v}}`])) : undefined;
  const bundled = def.runner === 'bundled' ? bundledLaunch(def.package) : null;
  const launch = bundled ?? (def.runner === 'uvx' ? { command: 'uvx', args: [def.package] } : npx(def.package));
  return {
    ...common,
    installed: bundled !== null,
    command: launch.command,
    args: launch.args,
    ...(env ? { env } : {}),
  };
}

function npx(pkg: string): { command: string; args: string[] } {
  return { command: 'npx', args: ['-y', pkg] };
}

/** `node /abs/path/to/bin.js` for a dependency of boternity, or null if it is not installed. */
function bundledLaunch(pkg: string): { command: string; args: string[] } | null {
  const require = createRequire(import.meta.url);
  try {
    const manifestPath = require.resolve(`${pkg}/package.json`);
    const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
    const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
    return bin ? { command: process.execPath, args: [join(dirname(manifestPath), bin)] } : null;
  } catch {
    return null;
  }
}
