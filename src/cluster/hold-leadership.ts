/**
 * The leader of the jobs that must run once in the fleet (issue 22 part 7, ADR 041): audit
 * retention and the pins' upkeep sweep. On PostgreSQL the leader is the replica holding a
 * session advisory lock on a connection of its own (a one-connection client, never recycled;
 * not `sql.reserve()`: a reserved pool connection whose backend is terminated fails inside
 * postgres.js instead of reconnecting); the others try it every `retryMs`. A leader killed (`kill -9`) loses its connection, so its session
 * ends and the lock with it: the next try of another replica takes it over. The leader checks
 * at each tick that its connection's backend still holds the lock (a reconnected connection
 * would not), and steps down if not. On SQLite there is one process: it is always the leader.
 * @module
 */
import type { Logger } from 'pino';
import type { Sql } from 'postgres';

/** The leader's advisory lock: "bnld" in ASCII (the migrations' is "bnty"). */
export const LEADER_LOCK = 0x626e6c64;

/** Whether this replica leads now, and what it is told when that changes. */
export type Leadership = {
  isLeader(): boolean;
  /** Called with true when this replica becomes the leader, false when it stops being it. */
  onChange(listener: (leader: boolean) => void): () => void;
  /** Let the lock go (a clean stop); resolves once it is released. */
  stop(): Promise<void>;
};

/** The one process of a SQLite home: the leader from the start, for good. */
export function soleLeadership(): Leadership {
  return { isLeader: () => true, onChange: () => () => undefined, stop: async () => undefined };
}

/** Options of {@link holdLeadership}. */
export type HoldLeadershipOptions = {
  /** Opens the connection the lock is taken on (`OpenDb.openSession`). */
  openSession: () => Sql;
  /** How often a follower tries the lock, and the leader checks it still holds it. */
  retryMs: () => number;
  log: Logger;
  lock?: number;
};

/** Start trying to lead; the first try runs at once (its result before the promise resolves). */
export async function holdLeadership({
  openSession,
  retryMs,
  log,
  lock = LEADER_LOCK,
}: HoldLeadershipOptions): Promise<Leadership> {
  const listeners = new Set<(leader: boolean) => void>();
  let session: Sql | null = null;
  let leader = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const become = (next: boolean) => {
    if (next === leader) return;
    leader = next;
    log.info({ leader }, leader ? 'leading the run-once jobs (advisory lock taken)' : 'no longer the leader');
    for (const listener of listeners) listener(next);
  };
  /** Close the connection: its session ends, and any lock it held with it. */
  const letGo = async () => {
    const closing = session;
    session = null;
    await closing?.end({ timeout: 1 }).catch(() => undefined);
  };
  const tick = async () => {
    try {
      session ??= openSession();
      if (leader) {
        // A connection postgres.js reopened after a loss is a new session: it holds nothing.
        const [row] = await session`select count(*)::int as n from pg_locks
          where locktype = 'advisory' and objid = ${lock} and pid = pg_backend_pid() and granted`;
        if (row?.n !== 1) {
          log.warn('the leader lock was lost with its connection');
          await letGo();
          become(false);
        }
        return;
      }
      // The connection stays open between tries: one idle connection a follower.
      const [row] = await session`select pg_try_advisory_lock(${lock}) as ok`;
      if (row?.ok === true) become(true);
    } catch (error) {
      if (leader) log.warn({ err: error }, 'the leader lock could not be checked: stepping down');
      await letGo();
      become(false);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, retryMs());
    // The lock's upkeep never keeps the process alive.
    timer.unref();
  };
  running = tick();
  await running;
  schedule();
  return {
    isLeader: () => leader,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await letGo();
      become(false);
    },
  };
}
