/**
 * What the supervisor compares to decide whether a server's connection must restart (S3):
 * the server's config without the fields that only shape what agents see of it. The gateway
 * and the sampling budget read those from the current config, so a change to them applies at
 * once without touching the connection (section 7: a `PATCH` of `deniedTools` keeps the pid).
 * @module
 */
import type { ServerConfig } from '../config/schema.js';

/** Fields read per request from the current config, never by the connection. */
const VIEW_ONLY_FIELDS = [
  'allowedTools',
  'deniedTools',
  'samplingBudgetTokens',
  'sampling',
  'livenessCheckAfterMs',
  'maxConcurrentRequests',
  'timeouts',
  'toolOverrides',
] as const;

/** The part of a server's config its connection depends on. */
export function connectionSpec(config: ServerConfig): ServerConfig {
  const spec: Record<string, unknown> = { ...config };
  for (const field of VIEW_ONLY_FIELDS) delete spec[field];
  return spec as ServerConfig;
}

/** {@link connectionSpec} of every server. */
export function connectionSpecs(servers: Readonly<Record<string, ServerConfig>>): Record<string, ServerConfig> {
  return Object.fromEntries(Object.entries(servers).map(([name, config]) => [name, connectionSpec(config)]));
}
