/**
 * A replica's heartbeat (ADR 041): its `replicas` row written at start, refreshed every
 * `replicas.heartbeatMs` (one UPDATE-or-INSERT; the timer never keeps the process alive) and
 * marked stopped on a clean stop. A replica killed leaves its row as it was: the fleet view
 * calls it stale once its heartbeat is older than `replicas.staleAfterMs`.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { ConfigError } from '../errors.js';
import type { Db } from '../storage/create-db.js';
import { beatReplica, markReplicaStopped, readReplica } from '../storage/replica-repo.js';
import { REPLICA_ID_ENV } from './replica-id.js';

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

/**
 * On a fleet's database (K5), before this replica joins: throws when another live process
 * beats with its id (two replicas with one id would take each other's messages for their
 * own) — its row written within two beats and not marked stopped, and beating again while
 * this one waits a beat and a half. A row that does not (its process was killed) is taken
 * over after that wait.
 */
export async function assertReplicaIdFree({
  db,
  id,
  everyMs,
  log,
  now = Date.now,
}: Pick<HeartbeatOptions, 'db' | 'id' | 'everyMs' | 'log' | 'now'>): Promise<void> {
  const row = await readReplica(db, id);
  const beatAt = row?.lastHeartbeat.getTime() ?? 0;
  if (!row || row.stoppedAt || now() - beatAt > 2 * everyMs()) return;
  log.info(
    { lastHeartbeat: row.lastHeartbeat.toISOString() },
    'a replica with this id beat moments ago; waiting a beat to tell a live one from one that was killed',
  );
  await sleep(Math.round(1.5 * everyMs()));
  const again = await readReplica(db, id);
  if (again && !again.stoppedAt && again.lastHeartbeat.getTime() !== beatAt)
    throw new ConfigError(
      `${REPLICA_ID_ENV} "${id}" is in use: a live replica beats with it (at ${again.lastHeartbeat.toISOString()}${again.address ? `, ${again.address}` : ''}); give each replica its own id`,
      null,
    );
}
