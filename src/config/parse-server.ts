/**
 * One `mcpServers` entry on its own (SPEC C1, C7): expand its preset, interpolate `${env:…}`,
 * pick the schema from `type` (or from `command`/`url` when absent) and derive `transport`.
 * Issue paths are relative to the entry; an empty path means the entry itself.
 * @module
 */

import { checkKeys } from './check-keys.js';
import { checkNestedKeys } from './check-nested-keys.js';
import type { PathIssue } from './config-issues.js';
import { adoptForeignKeys, FOREIGN_SERVER_KEYS } from './foreign-keys.js';
import { interpolateEnv } from './interpolate-env.js';
import { isJsonObject } from './json-object.js';
import { presetNames, resolvePreset } from './presets.js';
import { RemoteServerSchema, SERVER_NAME, type ServerConfig, StdioServerSchema } from './schema.js';
import { configErrorMap, describeValue, fromZodIssues } from './zod-messages.js';

type Transport = ServerConfig['transport'];

/** Accepted `type` spellings (Claude Desktop, Cursor, VS Code) and the transport each means. */
const TRANSPORT_TYPES: Readonly<Record<string, Transport>> = Object.freeze({
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
  auto: 'auto',
});

const BAD_NAME = 'invalid server name: use up to 48 letters, digits, "_", "." or "-", starting with a letter or digit';

/** Every key a server entry of ours may have, whatever its transport. */
export const SERVER_KEYS: readonly string[] = Object.freeze([
  ...new Set([...Object.keys(StdioServerSchema.shape), ...Object.keys(RemoteServerSchema.shape)]),
]);

/** The validated entry (null when invalid), every issue found in it, and warnings (unknown keys kept). */
export type ParsedServer = {
  readonly server: ServerConfig | null;
  readonly issues: PathIssue[];
  readonly warnings: PathIssue[];
};

/** Validate one server entry; never throws. `configDir` resolves a relative `envFile`. */
export function parseServerEntry(
  name: string,
  raw: unknown,
  env: NodeJS.ProcessEnv = process.env,
  configDir: string = process.cwd(),
): ParsedServer {
  const issues: PathIssue[] = [];
  if (!SERVER_NAME.test(name)) issues.push({ path: [], message: BAD_NAME });
  if (!isJsonObject(raw)) {
    issues.push({ path: [], message: `expected an object, got ${describeValue(raw)}` });
    return { server: null, issues, warnings: [] };
  }
  const keys = checkKeys(raw, SERVER_KEYS, FOREIGN_SERVER_KEYS, []);
  const { warnings } = keys;
  issues.push(...keys.issues);
  const adopted = adoptForeignKeys(raw, configDir);
  issues.push(...adopted.issues);
  const expanded = expandPreset(adopted.entry);
  if (expanded.issues.length > 0) return { server: null, issues: [...issues, ...expanded.issues], warnings };

  const interpolated = interpolateEnv(expanded.entry, env);
  const entry = interpolated.value as Record<string, unknown>;
  const picked = pickTransport(entry);
  issues.push(...picked.issues, ...interpolated.issues);
  if (picked.transport === null) return { server: null, issues, warnings };

  const transport = picked.transport;
  const schema = transport === 'stdio' ? StdioServerSchema : RemoteServerSchema;
  const input: Record<string, unknown> = { ...entry, type: transport };
  // Keys inside its sections (`backoff`, `timeouts` …): near misses are errors, others warnings, left out.
  for (const [key, child] of Object.entries(schema.shape)) {
    if (!isJsonObject(input[key])) continue;
    const nested = checkNestedKeys(input[key], child, [key]);
    issues.push(...nested.issues);
    warnings.push(...nested.warnings);
    input[key] = nested.value;
  }
  const result = schema.safeParse(input, { error: configErrorMap, jitless: true });
  if (!result.success) issues.push(...fromZodIssues(result.error.issues, interpolated.issues));
  if (!result.success || issues.length > 0) return { server: null, issues, warnings };
  return { server: { ...result.data, transport } as ServerConfig, issues, warnings };
}

/** The transport to validate with, and issues about `type`/`command`/`url`. */
function pickTransport(entry: Record<string, unknown>): { transport: Transport | null; issues: PathIssue[] } {
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  const inferred: Transport | null = hasCommand ? 'stdio' : hasUrl ? 'auto' : null;
  const issues: PathIssue[] = [];
  if (hasCommand && hasUrl)
    issues.push({ path: [], message: 'has both "command" (stdio) and "url" (http/sse): keep only one' });
  const type = entry.type;
  const known = typeof type === 'string' && Object.hasOwn(TRANSPORT_TYPES, type) ? TRANSPORT_TYPES[type] : undefined;
  // A known type picks the schema, which then names the missing field itself.
  if (known !== undefined) return { transport: known, issues };
  if (type !== undefined) {
    issues.push({
      path: ['type'],
      message: `unknown transport ${JSON.stringify(type)} (expected stdio, http, sse or auto)`,
    });
  }
  if (inferred === null) issues.push({ path: [], message: 'needs "command" (stdio) or "url" (http/sse)' });
  return { transport: inferred, issues };
}

/** A `preset` entry without `command`/`url`: the preset's launch, plus the entry's args and env. */
function expandPreset(entry: Record<string, unknown>): { entry: Record<string, unknown>; issues: PathIssue[] } {
  const name = entry.preset;
  if (name === undefined || entry.command !== undefined || entry.url !== undefined) return { entry, issues: [] };
  const preset = typeof name === 'string' ? resolvePreset(name) : null;
  if (preset === null) {
    const message = `unknown preset ${JSON.stringify(name)} (known: ${presetNames().join(', ')})`;
    return { entry, issues: [{ path: ['preset'], message }] };
  }
  if (preset.url !== undefined) {
    return { entry: { ...entry, url: preset.url, type: entry.type ?? preset.type }, issues: [] };
  }
  // Leave a wrongly typed args/env as it is so that validation reports it.
  const args =
    entry.args === undefined ? preset.args : Array.isArray(entry.args) ? [...preset.args, ...entry.args] : entry.args;
  const env =
    entry.env === undefined ? preset.env : isJsonObject(entry.env) ? { ...preset.env, ...entry.env } : entry.env;
  return { entry: { ...entry, command: preset.command, args, ...(env === undefined ? {} : { env }) }, issues: [] };
}
