/**
 * Which replica this process is (issue 22 part 9, ADR 041): `BOTERNITY_REPLICA_ID`, else one
 * derived from the host name and the data directory. The derived id is stable over restarts
 * (a replica restarted on the same host and home is the same replica: it reaps its own
 * crashed children and takes its own rows back) and unique among live replicas (one home is
 * held by one process at a time: the home lock).
 * @module
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError } from '../errors.js';

/** The environment variable that names the replica. */
export const REPLICA_ID_ENV = 'BOTERNITY_REPLICA_ID';

const VALID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** Options of {@link replicaIdFor}. */
export type ReplicaIdOptions = { env: NodeJS.ProcessEnv; home: string; host?: string };

/**
 * `BOTERNITY_REPLICA_ID` when set (1–64 of `A-Z a-z 0-9 _ . : -`, a letter or digit first),
 * else `<host>-<6 hex of the SHA-256 of the home's absolute path>`.
 */
export function replicaIdFor({ env, home, host = hostname() }: ReplicaIdOptions): string {
  const given = env[REPLICA_ID_ENV]?.trim();
  if (given) {
    if (!VALID.test(given))
      throw new ConfigError(
        `${REPLICA_ID_ENV} "${given.slice(0, 80)}" is not a replica id: use 1-64 letters, digits, '_', '.', ':' or '-', starting with a letter or digit`,
        null,
      );
    return given;
  }
  const name =
    host
      .replace(/[^A-Za-z0-9.-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 48) || 'replica';
  const suffix = createHash('sha256').update(resolve(home)).digest('hex').slice(0, 6);
  return `${name}-${suffix}`;
}

/**
 * The id a process that is no replica signs its writes with (the CLI writing a config version
 * with no service running): `BOTERNITY_REPLICA_ID`, else `host-pid`.
 */
export function processId(env: NodeJS.ProcessEnv): string {
  return env[REPLICA_ID_ENV]?.trim() || `${hostname()}-${process.pid}`;
}
