/**
 * A replica's heartbeat (ADR 041): its `replicas` row written at start, refreshed every
 * `replicas.heartbeatMs` (one UPDATE-or-INSERT; the timer never keeps the process alive) and
 * marked stopped on a clean stop. A replica killed leaves its row as it was: the fleet view
 * calls it stale once its heartbeat is older than `replicas.staleAfterMs`.
 * @module
 */
import type { Logger } from 'pino';
import type { Db } from '../storage/create-db.js';
import { beatReplica, markReplicaStopped } from '../storage/replica-repo.js';

/** Options of {@link startHeartbeat}. */
export type HeartbeatOptions = {
  db: Db;
  id: string;
  version: string;
  /** Where the replica answers (its HTTP base URL), shown in the fleet view. */
  address: string | null;
  everyMs: () => number;
  /** Whether it leads the run-once jobs now, written with each beat. */
  leader: () => boolean;
  log: Logger;
  now?: () => number;
};

/** The running heartbeat. */
export type Heartbeat = {
  /** Write a beat now (after a change the fleet view should see before the next one). */
  beat(): Promise<void>;
  /** Stop beating and mark the replica stopped. */
  stop(): Promise<void>;
};

/** Write the first beat (awaited: a database that refuses it fails the start), then beat on. */
export async function startHeartbeat(options: HeartbeatOptions): Promise<Heartbeat> {
  const { db, id, version, address, everyMs, leader, log, now = Date.now } = options;
  let failing = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let last: Promise<void> = Promise.resolve();
  const write = (started = false) => beatReplica(db, { id, version, address, at: now(), leader: leader() }, started);
  const beat = () => {
    last = last
      .then(() => write())
      .then(
        () => {
          if (failing) log.info('heartbeat written again');
          failing = false;
        },
        (error: unknown) => {
          // Said once per outage, not at every beat.
          if (!failing) log.warn({ err: error }, 'heartbeat not written; the fleet view will call this replica stale');
          failing = true;
        },
      );
    return last;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void beat().finally(schedule), everyMs());
    timer.unref();
  };
  await write(true);
  schedule();
  return {
    beat,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await last;
      await markReplicaStopped(db, id, now());
    },
  };
}
