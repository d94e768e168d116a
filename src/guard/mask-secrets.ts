/**
 * Secrets never leave through the API (SPEC C6): what a server's config holds that may be a
 * secret is masked before it is shown: every `env` and `headers` value, a password in a URL
 * (`url`, or an argument such as `postgresql://u:p@host/db`), URL query values and arguments
 * whose name says token, key, secret or password, and any such key elsewhere in the config.
 * A value that is only a `${secret:NAME}` reference is shown as it is: the keystore keeps the secret.
 * Pure: no I/O, nothing from the rest of src/.
 * @module
 */

/** What a masked value reads as. */
export const MASKED = '********';

const SECRET_WORDS = new Set(['token', 'secret', 'password', 'passwd', 'pwd', 'apikey', 'authorization', 'cookie']);
const SECRET_PAIRS = new Set(['api key', 'access key', 'private key', 'client secret']);

/** The words of a name: `--api-key`, `X-API-Key`, `apiKey`, `GITHUB_TOKEN` → lowercase words. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** True when a key or flag name says its value is a secret (`credentialKey` names one; `…Tokens` counts them). */
export function looksSecret(name: string): boolean {
  const words = wordsOf(name);
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  return words.some((word, i) => i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${word}`));
}

/** A URL with its password and secret-looking query values masked; text that is not a URL is returned as is. */
export function maskUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  let changed = false;
  if (url.password !== '') {
    url.password = MASKED;
    changed = true;
  }
  for (const key of [...url.searchParams.keys()]) {
    if (looksSecret(key)) {
      url.searchParams.set(key, MASKED);
      changed = true;
    }
  }
  return changed ? url.toString() : text;
}

/** Command-line arguments with `--token X`, `--token=X` and URL passwords masked. */
export function maskArgs(args: readonly string[]): string[] {
  return args.map((arg, index) => {
    const previous = index > 0 ? args[index - 1] : undefined;
    if (previous !== undefined && /^--?[\w-]+$/.test(previous) && looksSecret(previous)) return MASKED;
    const flag = /^(--?[\w-]+)=(.*)$/.exec(arg);
    if (flag && looksSecret(flag[1] as string)) return `${flag[1]}=${MASKED}`;
    return maskUrl(arg);
  });
}

/** A value that is only a `${secret:NAME}` reference: it names a keystore entry, not the secret itself. */
const SECRET_REFERENCE = /^\$\{secret:[^}]*\}$/;

function maskValues(record: unknown): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key,
      typeof value === 'string' && SECRET_REFERENCE.test(value) ? value : MASKED,
    ]),
  );
}

/** One server entry with its secrets masked (see the module's list). */
export function maskServerEntry<T extends Record<string, unknown>>(entry: T): T {
  const out: Record<string, unknown> = { ...entry };
  if ('env' in out) out.env = maskValues(out.env);
  if ('headers' in out) out.headers = maskValues(out.headers);
  if (typeof out.url === 'string') out.url = maskUrl(out.url);
  if (Array.isArray(out.args)) out.args = maskArgs(out.args.map(String));
  return out as T;
}

/** A whole config (or any JSON value) with every server's secrets and every secret-looking key masked. */
export function maskConfig(value: unknown, key = ''): unknown {
  if (key !== '' && looksSecret(key) && (typeof value === 'string' || typeof value === 'number')) return MASKED;
  if (Array.isArray(value)) return value.map((item) => maskConfig(item));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(record)) {
    if ((name === 'mcpServers' || name === 'servers') && typeof item === 'object' && item !== null) {
      out[name] = Object.fromEntries(
        Object.entries(item as Record<string, unknown>).map(([server, entry]) => [
          server,
          typeof entry === 'object' && entry !== null && !Array.isArray(entry)
            ? maskServerEntry(entry as Record<string, unknown>)
            : entry,
        ]),
      );
    } else {
      out[name] = maskConfig(item, name);
    }
  }
  return out;
}
