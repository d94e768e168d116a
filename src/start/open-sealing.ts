/**
 * Sealed session ids, on when `BOTERNITY_CLUSTER_KEY` is set (issue 22 part 3, ADR 039): the
 * seal from the key, the closed list in the service's database (every replica's), word of
 * a `DELETE` on the fleet bus (cluster mode), and a sealed id's lifetime. Off (no key): ids stay random UUIDs and nothing here runs.
 * @module
 */

import type { Logger } from 'pino';
import type { Sql } from 'postgres';
import { type FleetBus, liveReplicas } from '../cluster/index.js';
import { ConfigError } from '../errors.js';
import { createSessionSeal, type RelayNote, type Sealing } from '../http/mcp/index.js';
import { createClosedSessions } from '../storage/closed-sessions-repo.js';
import type { Db } from '../storage/create-db.js';
import { createStreamEvents } from '../storage/pg/stream-events-repo.js';
import { createSessionStates } from '../storage/session-states-repo.js';

/** The fleet bus topic of ended sessions (their ids' digests). */
const CLOSED_TOPIC = 'sessions.closed';
/** The fleet bus topic of what a session's client sent to a replica that is another's to handle. */
const RELAY_TOPIC = 'sessions.relay';
/** The environment variable of the cluster's shared secret. */
export const CLUSTER_KEY_ENV = 'BOTERNITY_CLUSTER_KEY';
/** The shortest cluster key taken: a key that can be guessed would let anyone forge session ids. */
const MIN_KEY = 32;
/** How long a sealed id may be rebuilt on another replica: a day, then its client opens a new session. */
export const SEALED_SESSION_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * The sealing of `env`'s cluster key over `db`; null without a key. `pg` (PostgreSQL): where
 * the GET streams' events are kept for a resumption on another replica. `staleAfterMs`: a
 * replica whose heartbeat is older is not waited for when a session's change is answered.
 */
export function openSealing(
  env: NodeJS.ProcessEnv,
  db: Db,
  bus: FleetBus | null = null,
  pg: { sql: Sql; log: Pick<Logger, 'warn'> } | null = null,
  staleAfterMs: (() => number) | null = null,
): Sealing | null {
  const key = env[CLUSTER_KEY_ENV]?.trim();
  if (!key) return null;
  if (key.length < MIN_KEY)
    throw new ConfigError(
      `${CLUSTER_KEY_ENV} is ${key.length} characters: use at least ${MIN_KEY} random ones (for example: openssl rand -base64 48), the same on every replica`,
      null,
    );
  return {
    seal: createSessionSeal(key),
    closed: createClosedSessions(db, { maxAgeMs: SEALED_SESSION_MAX_AGE_MS }),
    maxAgeMs: SEALED_SESSION_MAX_AGE_MS,
    notices: bus
      ? {
          publish: (digest) => void bus.publish(CLOSED_TOPIC, digest).catch(() => undefined),
          subscribe: (handler) =>
            bus.subscribe(CLOSED_TOPIC, ({ payload }) => {
              if (typeof payload === 'string') handler(payload);
            }),
        }
      : null,
    relay: bus
      ? {
          bus: {
            replica: bus.replica,
            publish: (note) => bus.publish(RELAY_TOPIC, note),
            subscribe: (handler, onReady) =>
              bus.subscribe(RELAY_TOPIC, ({ payload, self }) => handler(payload as RelayNote, self), { onReady }),
          },
          states: createSessionStates(db, { maxAgeMs: SEALED_SESSION_MAX_AGE_MS }),
          peers: staleAfterMs ? () => liveReplicas(db, bus.replica, staleAfterMs()) : null,
          events: pg ? createStreamEvents(pg) : null,
        }
      : null,
  };
}
