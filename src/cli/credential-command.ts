/**
 * `bnity mcp credential set|list|remove`: edit the keystore (C6) directly; no running
 * service is needed. The service reads the keystore at each connect, so a new secret
 * applies at the server's next reconnect. `set` reads the secret from stdin, never argv.
 * On a PostgreSQL database (cluster mode, ADR 041) the keystore is the database's, sealed
 * with `BOTERNITY_KEYSTORE_KEY`, as every replica reads it.
 * @module
 */
import { UsageError } from '../errors.js';
import { isCredentialName, type Keystore, openKeystore } from '../storage/keystore.js';
import { isPostgresUrl } from '../storage/pg/postgres-url.js';
import { resolveTarget } from './resolve-target.js';
import { targetDatabaseUrl } from './target-database-url.js';

type HomeFlags = { home?: string };

/** The keystore the service of this home reads: its file, or the PostgreSQL database's. */
async function keystoreOf(
  flags: HomeFlags,
  env: NodeJS.ProcessEnv,
): Promise<{ keystore: Keystore; home: string; close(): Promise<void> }> {
  const target = await resolveTarget(flags.home ? { home: flags.home } : {}, env);
  const url = await targetDatabaseUrl(target);
  const { home } = target;
  if (!isPostgresUrl(url)) return { keystore: await openKeystore({ home, env }), home, close: async () => undefined };
  const [{ createDb }, { openDbKeystore, requireClusterKey }, { KEYSTORE_KEY_ENV, parseEnvKey }] = await Promise.all([
    import('../storage/create-db.js'),
    import('../storage/db-keystore.js'),
    import('../storage/keystore-cipher.js'),
  ]);
  const key = requireClusterKey(parseEnvKey(env[KEYSTORE_KEY_ENV]));
  const store = await createDb({ url });
  return { keystore: openDbKeystore({ db: store.db, key }), home, close: () => store.close() };
}

/** Run `work` on the keystore of `flags`' home, then close what it opened. */
async function withKeystore<T>(
  flags: HomeFlags,
  env: NodeJS.ProcessEnv,
  work: (keystore: Keystore, home: string) => Promise<T>,
): Promise<T> {
  const { keystore, home, close } = await keystoreOf(flags, env);
  try {
    return await work(keystore, home);
  } finally {
    await close();
  }
}

/** `bnity mcp credential set NAME`: the secret comes from `stdin`, never from argv. */
export async function credentialSet(
  name: string,
  flags: HomeFlags,
  env: NodeJS.ProcessEnv,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  checkName(name);
  if ((stdin as { isTTY?: boolean }).isTTY) process.stderr.write(`Secret for "${name}" (end with Ctrl-D): `);
  const secret = trimNewline(await readAll(stdin));
  if (secret === '') throw new UsageError(`refusing an empty secret for "${name}": pipe the secret into stdin`);
  return withKeystore(flags, env, async (keystore) => {
    await keystore.set(name, secret);
    process.stdout.write(`saved credential "${name}" in ${keystore.path}\n`);
    return 0;
  });
}

/** `bnity mcp credential list`: the names, never the secrets. */
export async function credentialList(flags: HomeFlags & { json?: boolean }, env: NodeJS.ProcessEnv): Promise<number> {
  return withKeystore(flags, env, async (keystore, home) => {
    const names = await keystore.names();
    if (flags.json) process.stdout.write(`${JSON.stringify({ credentials: names }, null, 2)}\n`);
    else if (names.length > 0) process.stdout.write(`${names.join('\n')}\n`);
    else
      process.stderr.write(
        `bnity: no credentials in ${keystore.path.startsWith('database') ? 'the database' : home}\n`,
      );
    return 0;
  });
}

/** `bnity mcp credential remove NAME`. */
export async function credentialRemove(name: string, flags: HomeFlags, env: NodeJS.ProcessEnv): Promise<number> {
  checkName(name);
  return withKeystore(flags, env, async (keystore) => {
    if (!(await keystore.remove(name))) {
      process.stderr.write(`bnity: credential "${name}" is not in the keystore (${keystore.path})\n`);
      return 1;
    }
    process.stdout.write(`removed credential "${name}"\n`);
    return 0;
  });
}

function checkName(name: string): void {
  if (!isCredentialName(name))
    throw new UsageError(`invalid credential name ${JSON.stringify(name)}: use 1 to 64 of A-Z a-z 0-9 _ . -`);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Drop one trailing newline (`echo` adds it); other whitespace is part of the secret. */
function trimNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}
