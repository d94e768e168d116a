/**
 * `bnity mcp import` keeps secrets out of `boternity.json` (issue 18 item 6): a client file
 * often holds them in clear (`"env": { "API_TOKEN": "s3cr3t…" }` in Claude Desktop's). An
 * env value whose name looks secret (`*TOKEN*`, `*KEY*`, `*SECRET*`, `*PASSWORD*`, any
 * case) goes to the keystore under `<server>.<VAR>`, and the entry gets `${secret:<server>.<VAR>}`
 * in its place. Values that hold references already (`${env:…}`, `${secret:…}`) stay.
 * @module
 */
import { isJsonObject } from './json-object.js';
import { secretReference } from './secret-reference.js';

/** One env value moved to the keystore: where it was, and the entry it went to (never the value's text in output). */
export type MovedSecret = { server: string; variable: string; credential: string; value: string };

const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD/i;
const REFERENCE = /\$\{(env|secret):/;

/** Whether an environment variable's name says its value is a secret. */
export const looksSecret = (variable: string): boolean => SECRET_NAME.test(variable);

/** The keystore name for `server`'s `variable` (within `[A-Za-z0-9_.-]{1,64}`). */
export function credentialNameOf(server: string, variable: string): string {
  return `${server}.${variable}`.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64);
}

/** `servers` with secret-looking env values replaced by references, and what was replaced. */
export function moveSecretEnv(servers: Record<string, Record<string, unknown>>): {
  servers: Record<string, Record<string, unknown>>;
  moved: MovedSecret[];
} {
  const moved: MovedSecret[] = [];
  const out: Record<string, Record<string, unknown>> = {};
  for (const [server, entry] of Object.entries(servers)) {
    const env = entry.env;
    if (!isJsonObject(env)) {
      out[server] = entry;
      continue;
    }
    const kept: Record<string, unknown> = {};
    for (const [variable, value] of Object.entries(env)) {
      if (typeof value !== 'string' || value === '' || !looksSecret(variable) || REFERENCE.test(value)) {
        kept[variable] = value;
        continue;
      }
      const credential = credentialNameOf(server, variable);
      moved.push({ server, variable, credential, value });
      kept[variable] = secretReference(credential);
    }
    out[server] = { ...entry, env: kept };
  }
  return { servers: out, moved };
}
