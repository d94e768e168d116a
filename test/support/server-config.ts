/**
 * Validated server configs for tests, built through the real zod schemas so defaults match
 * what the config loader produces (including the derived `transport`).
 * @module
 */
import type { z } from 'zod';
import {
  type RemoteServerConfig,
  RemoteServerSchema,
  type StdioServerConfig,
  StdioServerSchema,
} from '../../src/config/schema.js';

/** A stdio server entry, e.g. `stdioConfig({ command: process.execPath, args: [file] })`. */
export function stdioConfig(entry: z.input<typeof StdioServerSchema>): StdioServerConfig {
  return { ...StdioServerSchema.parse(entry), transport: 'stdio' };
}

/** A remote server entry; `type` defaults to `auto` as in the config file. */
export function remoteConfig(entry: z.input<typeof RemoteServerSchema>): RemoteServerConfig {
  const parsed = RemoteServerSchema.parse(entry);
  return { ...parsed, transport: parsed.type };
}
