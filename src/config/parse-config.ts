/**
 * Validate a parsed `boternity.json` (SPEC C1, C2). Every `mcpServers` entry is checked on its
 * own so that all problems are reported at once, each naming server and field. Keys this
 * version does not know are dropped, not rejected: other tools share the file.
 * @module
 */

import { invalidConfigError, type PathIssue, prefixIssues } from './config-issues.js';
import { interpolateEnv } from './interpolate-env.js';
import { isJsonObject } from './json-object.js';
import { parseServerEntry } from './parse-server.js';
import { type AppConfig, ConfigRestSchema, type ServerConfig } from './schema.js';
import { configErrorMap, describeValue, fromZodIssues } from './zod-messages.js';

/** Validate raw JSON into an `AppConfig`; throws a `ConfigError` listing every issue. */
export function parseConfig(raw: unknown, file: string | null, env: NodeJS.ProcessEnv = process.env): AppConfig {
  if (!isJsonObject(raw)) {
    throw invalidConfigError(file, [{ path: [], message: `expected a JSON object, got ${describeValue(raw)}` }]);
  }
  const { mcpServers: rawServers = {}, ...rawRest } = raw;
  const issues: PathIssue[] = [];
  const servers: Record<string, ServerConfig> = {};
  if (isJsonObject(rawServers)) {
    for (const [name, entry] of Object.entries(rawServers)) {
      const parsed = parseServerEntry(name, entry, env);
      issues.push(...prefixIssues(['mcpServers', name], parsed.issues));
      if (parsed.server !== null) servers[name] = parsed.server;
    }
  } else {
    issues.push({
      path: ['mcpServers'],
      message: `expected an object of servers by name, got ${describeValue(rawServers)}`,
    });
  }

  const rest = interpolateEnv(rawRest, env);
  const parsedRest = ConfigRestSchema.safeParse(rest.value, { error: configErrorMap });
  issues.push(...rest.issues);
  if (!parsedRest.success) issues.push(...fromZodIssues(parsedRest.error.issues, rest.issues));
  if (!parsedRest.success || issues.length > 0) throw invalidConfigError(file, issues);
  return { ...parsedRest.data, mcpServers: servers };
}
