/**
 * The service's keystore (SPEC C6): the home's encrypted file, or, on a PostgreSQL database
 * (cluster mode, ADR 041), the database's, sealed with `BOTERNITY_KEYSTORE_KEY`. Without that
 * key on PostgreSQL the start stops here, in one line, before anything else runs. The
 * database's keystore opens once the database has (`storage`): a read before waits for it.
 * @module
 */
import type { AppConfig } from '../config/schema.js';
import { databaseUrlFor, type OpenDb } from '../storage/create-db.js';
import { DB_KEYSTORE_PATH, openDbKeystore, requireClusterKey } from '../storage/db-keystore.js';
import { type Keystore, openKeystore } from '../storage/keystore.js';

export { keystorePath } from '../storage/keystore.js';

import { KEYSTORE_KEY_ENV, parseEnvKey } from '../storage/keystore-cipher.js';
import { isPostgresUrl } from '../storage/pg/postgres-url.js';

/** Options of {@link openServiceKeystore}. */
export type OpenServiceKeystoreOptions = {
  home: string;
  env: NodeJS.ProcessEnv;
  config: Pick<AppConfig, 'database'>;
  /** The database once open; called at the first use of a database keystore only. */
  storage: () => Promise<{ store: OpenDb }>;
};

/** The keystore the service reads credentials from and the API writes to. */
export async function openServiceKeystore({
  home,
  env,
  config,
  storage,
}: OpenServiceKeystoreOptions): Promise<Keystore> {
  if (!isPostgresUrl(databaseUrlFor(home, env, config.database.url))) return openKeystore({ home, env });
  const key = requireClusterKey(parseEnvKey(env[KEYSTORE_KEY_ENV]));
  let opened: Promise<Keystore> | null = null;
  const keystore = () => {
    opened ??= storage().then(({ store }) => openDbKeystore({ db: store.db, key }));
    return opened;
  };
  return {
    path: DB_KEYSTORE_PATH,
    get: async (name) => (await keystore()).get(name),
    set: async (name, secret) => (await keystore()).set(name, secret),
    remove: async (name) => (await keystore()).remove(name),
    names: async () => (await keystore()).names(),
  };
}
