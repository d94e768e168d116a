/**
 * A process ledger that is not open yet (S6): the upstreams are spawned before the database
 * opens (issue 8), and their records wait, in order, for the ledger `ready` gives. `ready`
 * settles only once the orphans of a crashed run have been read and dealt with, so no record
 * of a new child is written before them, nor taken for one of them.
 * @module
 */
import type { ProcessLedger } from './types.js';

/** The ledger `ready` gives; records made before it are written once it is there. */
export function deferLedger(ready: Promise<ProcessLedger>): ProcessLedger {
  // A ledger that never opens fails the records that wait for it, not the process.
  ready.catch(() => undefined);
  return {
    recordSpawn: async (entry) => (await ready).recordSpawn(entry),
    recordExit: async (pid) => (await ready).recordExit(pid),
  };
}
