/**
 * The database side of start-up, run while the upstreams start (issue 8): open the
 * database, then end the children a crashed run left behind (S6) before the ledger is handed
 * out, so the records of this run's children come after the orphans were read.
 * @module
 */
import type { Logger } from 'pino';
import { createDb, databaseUrlFor, type OpenDb } from '../storage/create-db.js';
import { createProcessLedger, type StoredProcessLedger } from '../storage/process-ledger.js';
import { reapLeftovers } from '../upstream/reap-orphans.js';

/** The open database and the process ledger, the orphans already dealt with. */
export type Storage = { store: OpenDb; ledger: StoredProcessLedger };

/** Open the database of `home` and reap the leftovers of a crashed run. */
export async function openStorage({
  home,
  env,
  graceMs,
  log,
}: {
  home: string;
  env: NodeJS.ProcessEnv;
  graceMs: number;
  log: Logger;
}): Promise<Storage> {
  const store = await createDb({ url: databaseUrlFor(home, env) });
  try {
    const ledger = createProcessLedger(store.db);
    await reapLeftovers(ledger, graceMs, log);
    return { store, ledger };
  } catch (error) {
    await store.close();
    throw error;
  }
}
