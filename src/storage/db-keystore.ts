/**
 * The keystore in the database (issue 22 part 7, ADR 041): in cluster mode every replica
 * reads and writes the same secrets, in `keystore_entries`, each sealed as the file keystore
 * seals them (`keystore-cipher.ts`) under `BOTERNITY_KEYSTORE_KEY`, which every replica is
 * given and the database never sees: the database alone cannot open a secret. A write that
 * would mix keys (other entries that this key does not open) is refused, so a replica given
 * the wrong key loses nothing; the start checks the key against a stored entry first.
 * @module
 */
import { asc, eq } from 'drizzle-orm';
import { HubError, KeystoreError } from '../errors.js';
import type { Db } from './create-db.js';
import { rowsAffected } from './db-dialect.js';
import { checkName, type Keystore } from './keystore.js';
import { KEYSTORE_KEY_ENV, openEntry, sealEntry } from './keystore-cipher.js';
import { keystoreEntriesTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** Where the fleet view and errors say the secrets are. */
export const DB_KEYSTORE_PATH = 'database:keystore_entries';

const t = keystoreEntriesTable;

const messages = (name: string) => ({
  wrongKey: `keystore: cannot decrypt "${name}" in the database: ${KEYSTORE_KEY_ENV} is not the key it was sealed with (give every replica the same key)`,
  damaged: `keystore: entry "${name}" in the database is damaged`,
});

/**
 * Fail (one line) when `key` does not open the entries already stored; nothing is changed.
 * An empty keystore takes any key.
 */
export async function checkKeystoreKey(db: Db, key: Buffer): Promise<void> {
  const [entry] = await db.select().from(t).orderBy(asc(t.name)).limit(1);
  if (entry) openEntry(key, entry.name, entry, messages(entry.name));
}

/** The keystore of the database `db`, sealed under `key`. */
export function openDbKeystore({ db, key }: { db: Db; key: Buffer }): Keystore {
  return {
    path: DB_KEYSTORE_PATH,
    async get(name) {
      checkName(name);
      const [row] = await db.select().from(t).where(eq(t.name, name));
      return row ? openEntry(key, name, row, messages(name)) : null;
    },
    async set(name, secret) {
      checkName(name);
      if (typeof secret !== 'string' || secret === '')
        throw new HubError('bad_request', 'keystore: refusing an empty secret');
      // Refuse to mix keys, or to replace a secret this key cannot open: a stored entry must open.
      await checkKeystoreKey(db, key);
      const sealed = { ...sealEntry(key, name, secret), updatedAt: new Date() };
      await withBusyRetry(() =>
        db
          .insert(t)
          .values({ name, ...sealed })
          .onConflictDoUpdate({ target: t.name, set: sealed }),
      );
    },
    async remove(name) {
      checkName(name);
      return rowsAffected(await withBusyRetry(() => db.delete(t).where(eq(t.name, name)))) > 0;
    },
    async names() {
      return (await db.select({ name: t.name }).from(t).orderBy(asc(t.name))).map((row) => row.name);
    },
  };
}

/** The key cluster mode needs; without it the start stops in one line. */
export function requireClusterKey(key: Buffer | null): Buffer {
  if (key) return key;
  throw new KeystoreError(
    `a PostgreSQL database keeps the keystore in the database, sealed with ${KEYSTORE_KEY_ENV}: set it, the same on every replica (e.g. 'openssl rand -hex 32')`,
  );
}
