/**
 * The run-once jobs' leader (ADR 041) on a real PostgreSQL: of three replicas one leads; a
 * clean stop hands the lock over; a leader whose session ended (its backend terminated) steps
 * down and one replica leads again. A leader killed with `kill -9`: test/cli/serve-cluster.test.ts.
 */
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { holdLeadership, LEADER_LOCK, type Leadership, soleLeadership } from '../../src/cluster/index.js';
import { testLogger } from '../support/fixtures.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const log = testLogger();
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** `count` replicas on one database. */
async function replicas(count: number): Promise<{ leaders: Leadership[]; url: string }> {
  const database = await createPostgresDatabase();
  cleanup.push(database.drop);
  const leaders: Leadership[] = [];
  for (let i = 0; i < count; i++) {
    const openSession = () => {
      const sql = postgres(database.url, { max: 1, max_lifetime: 0, onnotice: () => {} });
      cleanup.push(() => sql.end({ timeout: 1 }));
      return sql;
    };
    const leadership = await holdLeadership({ openSession, retryMs: () => 100, log });
    cleanup.push(() => leadership.stop());
    leaders.push(leadership);
  }
  return { leaders, url: database.url };
}

describe('holdLeadership', () => {
  it('one replica of three leads', async () => {
    const { leaders } = await replicas(3);
    expect(leaders.map((l) => l.isLeader())).toEqual([true, false, false]);
  });

  it('a clean stop lets the lock go and another replica leads', async () => {
    const { leaders } = await replicas(2);
    await leaders[0]?.stop();
    expect(leaders[0]?.isLeader()).toBe(false);
    await waitFor(() => leaders[1]?.isLeader() === true, { what: 'the second replica leading' });
  });

  it('a leader whose session lost the lock steps down, and another leads', async () => {
    const { leaders, url } = await replicas(2);
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    cleanup.push(() => admin.end());
    const lost: boolean[] = [];
    leaders[0]?.onChange((leader) => lost.push(leader));
    // The lock holder's backend is terminated (a database restart, a network cut).
    await admin`select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objid = ${LEADER_LOCK} and granted`;
    await waitFor(() => lost.includes(false), { what: 'the old leader stepping down' });
    await waitFor(() => leaders.filter((l) => l.isLeader()).length === 1, { what: 'one leader again' });
  });

  it('on SQLite the one process leads', () => {
    expect(soleLeadership().isLeader()).toBe(true);
  });
});
