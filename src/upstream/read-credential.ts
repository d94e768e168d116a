/**
 * One keystore entry read for a connect (C6): a remote server's `credentialKey` or a
 * `${secret:NAME}` in a stdio server's env. What is missing or unreadable fails the
 * connect with one line naming the entry, never a value.
 * @module
 */
import { connectFailed } from './connect-failed.js';

/** Where credentials are read (the keystore, masked in the log once read). */
export type CredentialSource = { get(name: string): Promise<string | null> };

/** The secret stored as `name`; a connect error when there is no keystore, no entry, or it cannot be read. */
export async function readCredential(credentials: CredentialSource | undefined, name: string): Promise<string> {
  if (!credentials) throw connectFailed(`credential "${name}" cannot be read: no keystore is available`);
  let secret: string | null;
  try {
    secret = await credentials.get(name);
  } catch (error) {
    throw connectFailed(error instanceof Error ? error.message : String(error), error);
  }
  if (secret === null || secret === '')
    throw connectFailed(`credential "${name}" is not in the keystore: run 'bnity mcp credential set ${name}'`);
  return secret;
}
