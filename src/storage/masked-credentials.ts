/** The keystore as the service hands it to upstreams and bots: what it reads is masked in the log. */
import type { Keystore } from './keystore.js';

/** The keystore as upstreams read it: each secret handed out is masked in the log from then on. */
export function maskedCredentials(
  keystore: Pick<Keystore, 'get'>,
  secrets: Set<string>,
): { get(name: string): Promise<string | null> } {
  return {
    async get(name) {
      const secret = await keystore.get(name);
      if (secret) secrets.add(secret);
      return secret;
    },
  };
}
