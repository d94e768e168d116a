/**
 * The keystore (SPEC C6): outgoing credentials, referenced by a server's `credentialKey`,
 * kept in `<home>/keystore.enc` apart from the config. Each secret is sealed with
 * AES-256-GCM under a fresh 12-byte IV, the entry's name bound in as additional
 * authenticated data (an entry cannot be moved to another name). The key comes from
 * `BOTERNITY_KEYSTORE_KEY` (64 hex characters or base64 of 32 bytes), else from
 * `<home>/keystore.key` (32 random bytes, 0600, created on first write).
 *
 * The file is read at every call, so a secret set by `bnity mcp credential set` while the
 * service runs applies at the server's next connect. Secrets never appear in errors.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withFileLock } from '../config/with-file-lock.js';
import { writeFileAtomic } from '../config/write-file-atomic.js';
import { HubError, InvalidCredentialNameError, KeystoreError } from '../errors.js';
import { KEY_BYTES, KEYSTORE_KEY_ENV, openEntry, parseEnvKey, type SealedEntry, sealEntry } from './keystore-cipher.js';

export { KEYSTORE_KEY_ENV } from './keystore-cipher.js';

/** The encrypted credentials of one home directory. */
export type Keystore = {
  /** The secret stored under `name`, or null when there is none. */
  get(name: string): Promise<string | null>;
  /** Store (or replace) `name`'s secret. */
  set(name: string, secret: string): Promise<void>;
  /** Delete `name`; false when it was not there. */
  remove(name: string): Promise<boolean>;
  /** The stored names, sorted; never the secrets. */
  names(): Promise<string[]>;
  /** `<home>/keystore.enc`. */
  readonly path: string;
};

/** Options of {@link openKeystore}. */
export type OpenKeystoreOptions = { readonly home: string; readonly env?: NodeJS.ProcessEnv };

export const KEYSTORE_FILE_NAME = 'keystore.enc';
export const KEYSTORE_KEY_FILE_NAME = 'keystore.key';

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Where the keystore file of `home` is. */
export function keystorePath(home: string): string {
  return join(home, KEYSTORE_FILE_NAME);
}

/** True for a valid credential name. */
export function isCredentialName(name: string): boolean {
  return NAME.test(name);
}

type Entry = SealedEntry;
type KeystoreFile = { version: 1; entries: Record<string, Entry> };

/** Open the keystore of `home`; a malformed `BOTERNITY_KEYSTORE_KEY` is an error right away. */
export async function openKeystore({ home, env = process.env }: OpenKeystoreOptions): Promise<Keystore> {
  const path = join(home, KEYSTORE_FILE_NAME);
  const keyPath = join(home, KEYSTORE_KEY_FILE_NAME);
  const envKey = parseEnvKey(env[KEYSTORE_KEY_ENV]);
  const keySource = envKey ? KEYSTORE_KEY_ENV : keyPath;
  let cachedKey: Buffer | null = envKey;

  /** The key; with `create`, a missing key file is generated. Null: no key file yet. */
  const loadKey = async (create: boolean): Promise<Buffer | null> => {
    if (cachedKey) return cachedKey;
    let key = await readKeyFile(keyPath);
    if (!key && create) key = await createKeyFile(home, keyPath);
    if (key) cachedKey = key;
    return key;
  };

  const read = async (): Promise<KeystoreFile> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, entries: {} };
      throw new KeystoreError(`keystore: cannot read ${path}: ${(error as Error).message}`, { cause: error });
    }
    return parseFile(text, path);
  };

  const decrypt = (key: Buffer | null, name: string, entry: Entry): string =>
    openEntry(key, name, entry, {
      wrongKey: `keystore: cannot decrypt "${name}": wrong key (${KEYSTORE_KEY_ENV} or ${keyPath})`,
      damaged: `keystore: entry "${name}" in ${path} is damaged`,
    });

  // Writers queue behind one another in this process, and hold the file's lock against
  // other processes (`bnity mcp credential set` beside the service): no lost update.
  let queue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(task: () => Promise<T>): Promise<T> => {
    const locked = async () => {
      await mkdir(home, { recursive: true, mode: 0o700 });
      return withFileLock(path, task);
    };
    const run = queue.then(locked, locked);
    queue = run.catch(() => undefined);
    return run;
  };
  const write = async (file: KeystoreFile) => {
    await mkdir(home, { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  };

  return {
    path,
    async get(name) {
      checkName(name);
      const entry = (await read()).entries[name];
      if (!entry) return null;
      return decrypt(await loadKey(false), name, entry);
    },
    set(name, secret) {
      checkName(name);
      if (typeof secret !== 'string' || secret === '')
        return Promise.reject(new HubError('bad_request', 'keystore: refusing an empty secret'));
      return serialize(async () => {
        const file = await read();
        const key = await loadKey(true);
        if (!key) throw new KeystoreError(`keystore: no key (${keySource})`);
        // Refuse to mix keys in one file: an existing entry must open with this key.
        const other = Object.entries(file.entries).find(([n]) => n !== name);
        if (other) decrypt(key, other[0], other[1]);
        file.entries[name] = sealEntry(key, name, secret);
        await write(file);
      });
    },
    remove(name) {
      checkName(name);
      return serialize(async () => {
        const file = await read();
        if (!(name in file.entries)) return false;
        delete file.entries[name];
        await write(file);
        return true;
      });
    },
    async names() {
      return Object.keys((await read()).entries).sort();
    },
  };
}

export function checkName(name: string): void {
  if (typeof name !== 'string' || !NAME.test(name)) throw new InvalidCredentialNameError(String(name));
}

async function readKeyFile(keyPath: string): Promise<Buffer | null> {
  let key: Buffer;
  try {
    key = await readFile(keyPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new KeystoreError(`keystore: cannot read ${keyPath}: ${(error as Error).message}`, { cause: error });
  }
  if (key.length !== KEY_BYTES)
    throw new KeystoreError(`keystore: ${keyPath} must hold exactly ${KEY_BYTES} bytes (it has ${key.length})`);
  return key;
}

async function createKeyFile(home: string, keyPath: string): Promise<Buffer> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  try {
    await writeFile(keyPath, key, { flag: 'wx', mode: 0o600 });
    await chmod(keyPath, 0o600);
    return key;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const existing = await readKeyFile(keyPath);
      if (existing) return existing;
    }
    throw new KeystoreError(`keystore: cannot create ${keyPath}: ${(error as Error).message}`, { cause: error });
  }
}

function parseFile(text: string, path: string): KeystoreFile {
  const damaged = () => new KeystoreError(`keystore: ${path} is not a valid keystore file (version 1)`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw damaged();
  }
  if (typeof raw !== 'object' || raw === null) throw damaged();
  const { version, entries } = raw as { version?: unknown; entries?: unknown };
  if (version !== 1 || typeof entries !== 'object' || entries === null || Array.isArray(entries)) throw damaged();
  const out: Record<string, Entry> = {};
  for (const [name, entry] of Object.entries(entries)) {
    const e = entry as Partial<Entry> | null;
    if (
      !NAME.test(name) ||
      typeof e !== 'object' ||
      e === null ||
      typeof e.iv !== 'string' ||
      typeof e.tag !== 'string' ||
      typeof e.data !== 'string'
    )
      throw damaged();
    out[name] = { iv: e.iv, tag: e.tag, data: e.data };
  }
  return { version: 1, entries: out };
}
