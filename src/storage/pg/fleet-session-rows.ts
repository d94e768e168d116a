/**
 * The open agent sessions of every replica, counted for the session caps (issue 22 part 6,
 * ADR 042) in `fleet_sessions`, one row a session. A replica writes a row when it registers a
 * capped session (a sealed session held by several replicas keeps the row of the first that
 * still lives: the others' copies count as the same session), deletes its own row when the
 * session ends here, and on each heartbeat makes its rows exactly its
 * registry's (so rows missed during a database outage come back) with `seen_at` from the
 * database clock. Rows not refreshed within `ttlMs` (their replica died) do not count and
 * are deleted. Every statement passes the fleet store's health gate; a failed count
 * rejects, and the caller counts alone.
 * @module
 */
import type { Sql } from 'postgres';
import type { FleetStoreHealth } from './fleet-store-health.js';

/** Sessions open across the fleet: of one owner, and in all. */
export type FleetSessionCounts = { owner: number; total: number };

/** The rows of one replica process. */
export type FleetSessionRows = {
  /** Count the live rows: of `owner`, and all of them. */
  count(owner: string): Promise<FleetSessionCounts>;
  /** A capped session registered here. */
  put(id: string, owner: string): Promise<void>;
  /** A session ended here: its row goes if this process holds it. */
  drop(id: string): Promise<void>;
  /** Heartbeat: the rows held here become `open`, refreshed; the fleet's expired rows are deleted. */
  sync(open: readonly { id: string; owner: string }[]): Promise<void>;
};

/** The rows of the process `holder` (replica id and a per-process suffix). */
export function createFleetSessionRows({
  sql,
  health,
  holder,
  ttlMs,
}: {
  sql: Sql;
  health: FleetStoreHealth;
  holder: string;
  /** Read at each statement: how long a row counts without a heartbeat. */
  ttlMs: () => number;
}): FleetSessionRows {
  // The database clock in epoch ms: one clock for every replica's rows.
  const now = () => sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  return {
    count: (owner) =>
      health.run(async () => {
        const [row] = await sql`select count(*) filter (where owner = ${owner})::int as owner, count(*)::int as total
          from fleet_sessions where seen_at > ${now()} - ${ttlMs()}`;
        return { owner: Number(row?.owner ?? 0), total: Number(row?.total ?? 0) };
      }),
    put: (id, owner) =>
      health.run(async () => {
        // A live row of another process stays its: a copy of a sealed session rebuilt here
        // does not take the row of the replica that holds it too (ADR 039); an expired one is taken over.
        await sql`insert into fleet_sessions (session_id, owner, holder) values (${id}, ${owner}, ${holder})
          on conflict (session_id) do update set holder = excluded.holder, seen_at = excluded.seen_at
          where fleet_sessions.holder = excluded.holder or fleet_sessions.seen_at < ${now()} - ${ttlMs()}`;
      }),
    drop: (id) =>
      health.run(async () => {
        // Only if this process holds the row: a copy of a sealed session ending here leaves
        // the row of the replica that still holds it (ADR 039).
        await sql`delete from fleet_sessions where session_id = ${id} and holder = ${holder}`;
      }),
    sync: (open) =>
      health.run(async () => {
        const ids = open.map((s) => s.id);
        const owners = open.map((s) => s.owner);
        // One statement, not a transaction: postgres.js 3.4.9 can crash the process when the
        // backend of a reserved connection (sql.begin) dies (porsager/postgres#1208), and an
        // outage is when that happens. Its parts touch disjoint rows, so one snapshot is enough.
        await sql`with live as (select * from unnest(${ids}::text[], ${owners}::text[]) as s(id, owner)),
          kept as (insert into fleet_sessions (session_id, owner, holder) select id, owner, ${holder}::text from live
            on conflict (session_id) do update set holder = excluded.holder, seen_at = excluded.seen_at
            where fleet_sessions.holder = excluded.holder or fleet_sessions.seen_at < ${now()} - ${ttlMs()} returning 1),
          gone as (delete from fleet_sessions where holder = ${holder} and not (session_id = any(${ids}::text[])) returning 1),
          expired as (delete from fleet_sessions where seen_at < ${now()} - ${ttlMs()}
            and holder <> ${holder} and not (session_id = any(${ids}::text[])) returning 1)
          select (select count(*) from kept) + (select count(*) from gone) + (select count(*) from expired) as n`;
      }),
  };
}
