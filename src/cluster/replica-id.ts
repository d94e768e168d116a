/**
 * Which replica this process is (issue 22): `BOTERNITY_REPLICA_ID`, else `hostname-pid`.
 * The fleet bus names a message's sender with it and a config version its writer.
 * @module
 */
import { hostname } from 'node:os';

/** This replica's id: `BOTERNITY_REPLICA_ID` when set, else derived from the host and the process. */
export function replicaId(env: NodeJS.ProcessEnv = process.env): string {
  return env.BOTERNITY_REPLICA_ID?.trim() || `${hostname()}-${process.pid}`;
}
