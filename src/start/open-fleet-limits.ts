/**
 * Limits across replicas (issue 22 part 6, ADR 042), built only on PostgreSQL: the rate
 * limits count in `rate_limits` and the session caps in `fleet_sessions`, both behind one
 * health gate, so a database outage puts this replica on its own counters with one warning
 * and fails no call. Loaded by a dynamic import: a single service on SQLite never loads it.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import type { AgentSession, FleetSessionCount } from '../gateway/session/index.js';
import type { SessionRegistry } from '../gateway/session/session-registry.js';
import type { SharedLimiters } from '../http/perimeter/index.js';
import type { OpenDb } from '../storage/create-db.js';
import { createFleetSessionRows, type FleetSessionRows } from '../storage/pg/fleet-session-rows.js';
import { createFleetStoreHealth } from '../storage/pg/fleet-store-health.js';
import { createPgLimiterStore } from '../storage/pg/pg-limiter-store.js';

/** What the HTTP side and the gateway are given in a fleet; `stop` ends the heartbeat and lets go of this process's rows. */
export type FleetLimits = {
  shared: SharedLimiters;
  fleet: FleetSessionCount;
  /** The registry the gateway registers in: each capped session also gets its row. */
  sessions: SessionRegistry;
  stop(): Promise<void>;
};

/** Dead windows of the rate limits are swept this often (the library's own interval). */
const SWEEP_MS = 5 * 60_000;
/** A replica whose heartbeats stop for this many intervals no longer counts its sessions. */
const HEARTBEATS_TO_EXPIRE = 3;

/** Whether `session` counts against the caps (as `admit-session.ts` counts). */
const capped = (session: AgentSession): session is AgentSession & { owner: string } =>
  session.owner !== null && session.idles;

/** The limits of a fleet over `store`, or null on SQLite (a single service keeps them in memory). */
export function openFleetLimits({
  store,
  sessions,
  config,
  log,
  replica,
}: {
  store: OpenDb;
  sessions: SessionRegistry;
  config: () => AppConfig;
  log: Logger;
  /** This replica's id (ADR 041); a process's rows are held as `replica/random`. */
  replica: string;
}): FleetLimits | null {
  const sql = store.postgres;
  if (!sql) return null;
  const fleet = () => config().limits.fleet;
  const health = createFleetStoreHealth({
    log: log.child({ mod: 'limits' }),
    settings: () => ({ timeoutMs: fleet().storeTimeoutMs, retryMs: fleet().retryMs }),
  });
  const limiters = createPgLimiterStore({ sql, health });
  // A restarted replica keeping its id must not refresh the rows of its previous process.
  const holder = `${replica}/${randomBytes(4).toString('hex')}`;
  const rows = createFleetSessionRows({
    sql,
    health,
    holder,
    ttlMs: () => HEARTBEATS_TO_EXPIRE * fleet().sessionHeartbeatMs,
  });
  const ignore = () => undefined;
  const sync = () =>
    rows.sync(
      sessions
        .all()
        .filter(capped)
        .map((s) => ({ id: s.id, owner: s.owner })),
    );
  let beat: NodeJS.Timeout | undefined;
  let stopped = false;
  const nextBeat = () => {
    if (stopped) return;
    beat = setTimeout(() => void sync().catch(ignore).finally(nextBeat), fleet().sessionHeartbeatMs);
    beat.unref();
  };
  nextBeat();
  const sweep = setInterval(() => void limiters.sweep(), SWEEP_MS);
  sweep.unref();
  return {
    shared: (options) => limiters.limiter(options),
    fleet: rows,
    sessions: countedIn(sessions, rows),
    async stop() {
      stopped = true;
      clearTimeout(beat);
      clearInterval(sweep);
      // Sessions ended on stop have deleted their rows; whatever is left goes now.
      await rows.sync([]).catch(ignore);
    },
  };
}

/** `sessions`, whose capped sessions also get (and lose) a row in `rows`. */
function countedIn(sessions: SessionRegistry, rows: FleetSessionRows): SessionRegistry {
  // A row missed here (the database not answering) is written by the next heartbeat.
  const ignore = () => undefined;
  return {
    ...sessions,
    add(session) {
      sessions.add(session);
      if (capped(session)) void rows.put(session.id, session.owner).catch(ignore);
    },
    remove(session) {
      const released = sessions.remove(session);
      if (released !== null && capped(session)) void rows.drop(session.id).catch(ignore);
      return released;
    },
  };
}
