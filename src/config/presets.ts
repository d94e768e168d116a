/**
 * Bundled presets (SPEC C7): `{"preset": "filesystem", "args": ["/some/dir"]}` instead of a
 * launch command. Servers installed with boternity run with this Node by absolute path (no
 * npx, no network); the others use their usual `npx -y …` / `uvx …` command.
 * @module
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** How to launch a preset's server; `env` values may hold `${env:VAR}` references. */
export type Preset = {
  readonly command: string;
  readonly args: string[];
  readonly env?: Record<string, string>;
  readonly description: string;
};

/** A preset as listed by `listPresets()`: `installed` ones launch without a download. */
export type PresetInfo = Preset & { readonly name: string; readonly package: string; readonly installed: boolean };

type PresetDefinition = {
  readonly description: string;
  readonly package: string;
  readonly runner: 'bundled' | 'npx' | 'uvx';
  readonly envVars?: readonly string[];
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
    description: 'GitHub repositories, issues and pull requests',
    package: '@modelcontextprotocol/server-github',
    runner: 'npx',
    envVars: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
  },
  postgres: {
    description: 'Read-only SQL on PostgreSQL; add the connection URL as an argument',
    package: '@modelcontextprotocol/server-postgres',
    runner: 'npx',
  },
  'sequential-thinking': {
    description: 'Step-by-step problem solving through a thought sequence',
    package: '@modelcontextprotocol/server-sequential-thinking',
    runner: 'npx',
  },
  slack: {
    description: 'Slack channels, messages and users',
    package: '@modelcontextprotocol/server-slack',
    runner: 'npx',
    envVars: ['SLACK_BOT_TOKEN', 'SLACK_TEAM_ID'],
  },
  'brave-search': {
    description: 'Web and local search with the Brave Search API',
    package: '@modelcontextprotocol/server-brave-search',
    runner: 'npx',
    envVars: ['BRAVE_API_KEY'],
  },
});

/** The names of all presets, sorted. */
export function presetNames(): string[] {
  return Object.keys(PRESETS).sort();
}

/** The launch recipe of a preset, or null if there is no preset of that name. */
export function resolvePreset(name: string): Preset | null {
  const info = Object.hasOwn(PRESETS, name) ? describePreset(name) : null;
  if (info === null) return null;
  return {
    command: info.command,
    args: info.args,
    ...(info.env ? { env: info.env } : {}),
    description: info.description,
  };
}

/** Every preset with its launch command, sorted by name. */
export function listPresets(): PresetInfo[] {
  return presetNames().map((name) => describePreset(name));
}

function describePreset(name: string): PresetInfo {
  const def = PRESETS[name] as PresetDefinition;
  const env = def.envVars ? Object.fromEntries(def.envVars.map((v) => [v, `\${env:${v}}`])) : undefined;
  const bundled = def.runner === 'bundled' ? bundledLaunch(def.package) : null;
  const launch = bundled ?? (def.runner === 'uvx' ? { command: 'uvx', args: [def.package] } : npx(def.package));
  return {
    name,
    package: def.package,
    installed: bundled !== null,
    description: def.description,
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
