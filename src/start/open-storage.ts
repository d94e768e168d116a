/**
 * The database side of start-up, run while the upstreams start (issue 8): open the
 * database, then end the children a crashed run left behind (S6) before the ledger is handed
 * out, so the records of this run's children come after the orphans were read.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { assertReplicaIdFree, replicaIdFor } from '../cluster/index.js';
import type { AppConfig } from '../config/schema.js';
import { auditJournalPaths } from '../storage/audit-journal.js';
import { createDb, databaseUrlFor, type OpenDb } from '../storage/create-db.js';
import { checkKeystoreKey, requireClusterKey } from '../storage/db-keystore.js';
import { KEYSTORE_KEY_ENV, parseEnvKey } from '../storage/keystore-cipher.js';
import { checkSharedSecrets, type SharedSecret } from '../storage/pg/shared-secrets-check.js';
import { createProcessLedger, type StoredProcessLedger } from '../storage/process-ledger.js';
import { listReplicas } from '../storage/replica-repo.js';
import { reapLeftovers } from '../upstream/reap-orphans.js';

/**
 * The open database and the process ledger, the orphans already dealt with; where the
 * audit journals the rows of answered requests (beside a database file, else in the home);
 * which replica this process is (ADR 041: its ledger rows are its own).
 */
export type Storage = {
  store: OpenDb;
  ledger: StoredProcessLedger;
  /** The audit journal's path and its segments' former place (`auditJournalPaths`). */
  auditJournal: { path: string; before: string };
  replica: string;
};

/** Open the database of `home` and reap the leftovers of a crashed run. */
export async function openStorage({
  home,
  env,
  config,
  log,
}: {
  home: string;
  env: NodeJS.ProcessEnv;
  /** `database.url` (`BOTERNITY_DATABASE_URL` wins over it), the grace of the orphans' ending, the replicas' beat and staleness. */
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
    // And one given another cluster key or admin token than the live replicas (K5).
    if (store.postgres) {
      const db = store.db;
      const liveOthers = async () =>
        (await listReplicas(db))
          .filter(
            (row) =>
              row.id !== replica &&
              row.stoppedAt === null &&
              Date.now() - row.lastHeartbeat.getTime() <= config.replicas.staleAfterMs,
          )
          .map((row) => row.id);
      await checkSharedSecrets({ sql: store.postgres, secrets: sharedSecrets(env, log), liveOthers, log });
    }
    // Only this replica's children: on a shared database the others' pids are not ours to end.
    const ledger = createProcessLedger(store.db, { replica });
    await reapLeftovers(ledger, graceMs, log);
    const auditJournal = auditJournalPaths(store.file, home);
    const journalDir = dirname(auditJournal.path);
    try {
      mkdirSync(journalDir, { recursive: true, mode: 0o700 });
    } catch (error) {
      // The writer then warns once that its journal cannot be written, and keeps the rows in memory.
      log.warn({ err: error, dir: journalDir }, 'audit journal directory not created');
    }
    return { store, ledger, replica, auditJournal };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/**
 * The secrets a fleet's replicas must share, as given to this one; a warning for each one a
 * fleet needs that is not given (a single service on PostgreSQL may go without them).
 */
function sharedSecrets(env: NodeJS.ProcessEnv, log: Logger): SharedSecret[] {
  const secrets: SharedSecret[] = [];
  const key = env.BOTERNITY_CLUSTER_KEY?.trim();
  if (key) secrets.push({ env: 'BOTERNITY_CLUSTER_KEY', value: key });
  else
    log.warn(
      'BOTERNITY_CLUSTER_KEY is not set: a session is served only by the replica that opened it (behind a balancer with no affinity, set it, the same on every replica)',
    );
  const admin = env.BOTERNITY_ADMIN_TOKEN?.trim();
  if (admin) secrets.push({ env: 'BOTERNITY_ADMIN_TOKEN', value: admin });
  else
    log.warn(
      "BOTERNITY_ADMIN_TOKEN is not set: this replica's admin token is its own, from its home (for admin requests through a balancer, set it, the same on every replica)",
    );
  return secrets;
}
