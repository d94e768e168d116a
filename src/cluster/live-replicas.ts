/**
 * The replicas that run now, as the fleet's heartbeats say (issue 22): what a replica waits
 * for when it tells the others something they must act on before it answers.
 * @module
 */
import type { Db } from '../storage/create-db.js';
import { listReplicas } from '../storage/replica-repo.js';

/** The replicas other than `self` that run now: no clean stop, a heartbeat within `staleAfterMs`. */
export async function liveReplicas(db: Db, self: string, staleAfterMs: number): Promise<string[]> {
  const cutoff = Date.now() - staleAfterMs;
  return (await listReplicas(db))
    .filter((r) => r.id !== self && r.stoppedAt === null && r.lastHeartbeat.getTime() >= cutoff)
    .map((r) => r.id);
}
