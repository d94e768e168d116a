/**
 * The database side of start-up, run while the upstreams start (issue 8): open the
 * database, then end the children a crashed run left behind (S6) before the ledger is handed
 * out, so the records of this run's children come after the orphans were read.
 * @module
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { assertReplicaIdFree, replicaIdFor } from '../cluster/index.js';
import type { AppConfig } from '../config/schema.js';
import { createDb, databaseUrlFor, type OpenDb } from '../storage/create-db.js';
import { checkKeystoreKey, requireClusterKey } from '../storage/db-keystore.js';
import { KEYSTORE_KEY_ENV, parseEnvKey } from '../storage/keystore-cipher.js';
import { createProcessLedger, type StoredProcessLedger } from '../storage/process-ledger.js';
import { reapLeftovers } from '../upstream/reap-orphans.js';

/**
 * The open database and the process ledger, the orphans already dealt with; where the
 * audit journals the rows of answered requests (beside a database file, else in the home);
 * which replica this process is (ADR 041: its ledger rows are its own).
 */
export type Storage = { store: OpenDb; ledger: StoredProcessLedger; auditJournal: string; replica: string };

/** Open the database of `home` and reap the leftovers of a crashed run. */
export async function openStorage({
  home,
  env,
  config,
  log,
}: {
  home: string;
  env: NodeJS.ProcessEnv;
  /** `database.url` (`BOTERNITY_DATABASE_URL` wins over it), the grace of the orphans' ending, the replicas' beat. */
  config: Pick<AppConfig, 'database' | 'shutdown' | 'replicas'>;
  log: Logger;
}): Promise<Storage> {
  const graceMs = config.shutdown.graceMs;
  const url = databaseUrlFor(home, env, config.database.url);
  const replica = replicaIdFor({ env, home });
  const store = await createDb({ url, convertAutoVacuum: true, log });
  try {
    // Cluster mode: a replica given another keystore key stops here, before it reads or writes a secret.
    if (store.postgres) await checkKeystoreKey(store.db, requireClusterKey(parseEnvKey(env[KEYSTORE_KEY_ENV])));
    // And one given the id of a live replica, before it reaps that replica's children as its own (K5).
    if (store.postgres)
      await assertReplicaIdFree({ db: store.db, id: replica, everyMs: () => config.replicas.heartbeatMs, log });
    // Only this replica's children: on a shared database the others' pids are not ours to end.
    const ledger = createProcessLedger(store.db, { replica });
    await reapLeftovers(ledger, graceMs, log);
    return { store, ledger, replica, auditJournal: store.file ? `${store.file}-audit` : join(home, 'audit-journal') };
  } catch (error) {
    await store.close();
    throw error;
  }
}
