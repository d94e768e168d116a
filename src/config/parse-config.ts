/**
 * Validate a parsed `boternity.json` (SPEC C1, C2). Every `mcpServers` entry is checked on its
 * own so that all problems are reported at once, each naming server and field. VS Code's
 * `servers` is read like `mcpServers`. A key that is a near miss of a known one is an error;
 * other unknown keys stay in the file (other tools share it) and come back as warnings.
 * @module
 */
import { dirname } from 'node:path';
import { checkKeys } from './check-keys.js';
import { checkNestedKeys } from './check-nested-keys.js';
import { invalidConfigError, type LocatePath, type PathIssue, prefixIssues } from './config-issues.js';
import { interpolateEnv } from './interpolate-env.js';
import { isJsonObject } from './json-object.js';
import { parseServerEntry } from './parse-server.js';
import { type AppConfig, ConfigRestSchema, type ServerConfig } from './schema.js';
import { configErrorMap, describeValue, fromZodIssues } from './zod-messages.js';

/** A valid config, its warnings (unknown keys kept), and whether the file names its servers key at all. */
export type ParsedConfig = {
  readonly config: AppConfig;
  readonly warnings: readonly PathIssue[];
  /** False when the file has neither `mcpServers` nor `servers`: it cannot mean "no servers" on purpose. */
  readonly declaresServers: boolean;
};

/** The key that holds the servers in a raw file: ours, else VS Code's. */
export function serversKeyOf(raw: Readonly<Record<string, unknown>>): 'mcpServers' | 'servers' {
  return !Object.hasOwn(raw, 'mcpServers') && Object.hasOwn(raw, 'servers') ? 'servers' : 'mcpServers';
}

/** Top-level keys of other clients' files, accepted without a warning (VS Code's `inputs`). */
const FOREIGN_TOP_KEYS: readonly string[] = Object.freeze(['inputs']);

/** Validate raw JSON into an `AppConfig`; throws a `ConfigError` listing every issue. */
export function parseConfig(raw: unknown, file: string | null, env: NodeJS.ProcessEnv = process.env): AppConfig {
  return parseConfigDetailed(raw, file, env).config;
}

/** Like {@link parseConfig}, with the warnings and whether servers are declared; `locate` adds line and column to issues. */
export function parseConfigDetailed(
  raw: unknown,
  file: string | null,
  env: NodeJS.ProcessEnv = process.env,
  locate?: LocatePath,
): ParsedConfig {
  if (!isJsonObject(raw)) {
    throw invalidConfigError(
      file,
      [{ path: [], message: `expected a JSON object, got ${describeValue(raw)}` }],
      locate,
    );
  }
  const key = serversKeyOf(raw);
  const { mcpServers: _ours, servers: _vscode, ...rawRest } = raw;
  // Absent means "none declared" (see `declaresServers`); null is not an object of servers.
  const rawServers = Object.hasOwn(raw, key) ? raw[key] : {};
  const known = [...Object.keys(ConfigRestSchema.shape), 'mcpServers', 'servers'];
  const keys = checkKeys(raw, known, FOREIGN_TOP_KEYS, []);
  const issues: PathIssue[] = [...keys.issues];
  const warnings: PathIssue[] = [...keys.warnings];
  if (Object.hasOwn(raw, 'mcpServers') && Object.hasOwn(raw, 'servers')) {
    issues.push({ path: ['servers'], message: 'the file has both "mcpServers" and "servers" (VS Code): keep one' });
  }
  const servers: Record<string, ServerConfig> = {};
  const configDir = file === null ? process.cwd() : dirname(file);
  if (isJsonObject(rawServers)) {
    for (const [name, entry] of Object.entries(rawServers)) {
      const parsed = parseServerEntry(name, entry, env, configDir);
      issues.push(...prefixIssues([key, name], parsed.issues));
      warnings.push(...prefixIssues([key, name], parsed.warnings));
      if (parsed.server !== null) servers[name] = parsed.server;
    }
  } else {
    issues.push({ path: [key], message: `expected an object of servers by name, got ${describeValue(rawServers)}` });
  }

  // Only known sections are read: an unknown key is kept in the file, never interpolated.
  const knownRest = Object.fromEntries(Object.entries(rawRest).filter(([name]) => known.includes(name)));
  const rest = interpolateEnv(knownRest, env);
  // Keys inside the sections (the bots' too): near misses are errors, others warnings, left out.
  const sections = checkNestedKeys(rest.value, ConfigRestSchema, []);
  issues.push(...sections.issues);
  warnings.push(...sections.warnings);
  // jitless: a config is parsed once per load, where compiling zod's fast path for each
  // object schema costs more than it saves (10–20 ms of the start before the first spawn).
  const parsedRest = ConfigRestSchema.safeParse(sections.value, { error: configErrorMap, jitless: true });
  issues.push(...rest.issues);
  if (!parsedRest.success) issues.push(...fromZodIssues(parsedRest.error.issues, rest.issues));
  if (!parsedRest.success || issues.length > 0) throw invalidConfigError(file, issues, locate);
  return {
    config: { ...parsedRest.data, mcpServers: servers },
    warnings,
    declaresServers: Object.hasOwn(raw, key),
  };
}
