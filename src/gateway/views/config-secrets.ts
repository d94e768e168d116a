/**
 * The values of the config that the API masks as secrets (`src/guard/mask-secrets.ts`: every
 * `env` and `headers` value of a server), gathered so that the log's excerpts of upstream
 * text never show one: an upstream may echo its own token back.
 * @module
 */
import type { AppConfig } from '../../config/schema.js';

/** Every server's `env` and `headers` values. */
export function configSecrets(config: Pick<AppConfig, 'mcpServers'>): string[] {
  return Object.values(config.mcpServers).flatMap((server) =>
    Object.values('env' in server ? server.env : server.headers),
  );
}
