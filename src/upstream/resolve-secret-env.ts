/**
 * A stdio server's `env` with its `${secret:NAME}` references read from the keystore (C6),
 * at each connect, so a secret changed with `bnity mcp credential set` applies at the next
 * one. A name the keystore lacks fails the connect, naming the entry, never a value.
 * @module
 */
import type { StdioServerConfig } from '../config/schema.js';
import { hasSecretReference, replaceSecretReferences } from '../config/secret-reference.js';
import { type CredentialSource, readCredential } from './read-credential.js';

/** Where secrets are read (the keystore, masked in the log once read). */
export type SecretSource = CredentialSource;

/** Whether `config` names keystore entries in its env (only then is the connect delayed to read them). */
export const hasSecretEnv = (config: StdioServerConfig): boolean => Object.values(config.env).some(hasSecretReference);

/** `config` with its env's references replaced by the secrets; rejects with a connect error for a missing one. */
export async function resolveSecretEnv(
  config: StdioServerConfig,
  credentials: SecretSource | undefined,
): Promise<StdioServerConfig> {
  const lookup = (name: string): Promise<string> => readCredential(credentials, name);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(config.env)) env[key] = await replaceSecretReferences(value, lookup);
  return { ...config, env };
}
