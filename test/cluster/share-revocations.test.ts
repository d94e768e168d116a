/**
 * Revocations across the fleet (issue 22 part 7) on the run's real PostgreSQL: an announcement
 * resolves once every live replica forgot the token; a replica that is alive by its heartbeat
 * but never answers is waited for `waitMs` at most (with a warning naming it), stopped and stale
 * ones not at all; a malformed message is refused in one line and forgets nothing; a replica
 * whose listening connection dropped forgets every token when it listens again.
 */
import type postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { createFleetBus, type FleetBus, REVOKED_TOPIC, shareRevocations } from '../../src/cluster/index.js';
import type { OpenDb } from '../../src/storage/create-db.js';
import { beatReplica, markReplicaStopped } from '../../src/storage/replica-repo.js';
import { captureLog, LEVEL } from '../support/capture-log.js';
import { openSharedPostgres } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const beat = (store: OpenDb, id: string, at = Date.now()) =>
  beatReplica(store.db, { id, version: '0', address: null, at, leader: false });

/** Two replicas' stores on one database, a fleet bus each, their rows beating now. */
async function twoReplicas() {
  const shared = await openSharedPostgres(2);
  cleanup.push(shared.close);
  const [a, b] = shared.stores as [OpenDb, OpenDb];
  const bus = (store: OpenDb, replica: string, log = captureLog().log): FleetBus => {
    const made = createFleetBus({ sql: store.postgres as postgres.Sql, replica, log });
    cleanup.push(() => made.close());
    return made;
  };
  await beat(a, 'a');
  await beat(b, 'b');
  return { a, b, bus };
}

describe('revocations shared by the fleet', () => {
  it('resolves once the other replica forgot the token, not after waitMs', async () => {
    const { a, b, bus } = await twoReplicas();
    const forgotten: string[] = [];
    const onB = await shareRevocations({
      bus: bus(b, 'b'),
      db: b.db,
      log: captureLog().log,
      staleAfterMs: () => 15_000,
      forget: (id) => void forgotten.push(id),
    });
    cleanup.push(onB.stop);
    const { log, lines } = captureLog();
    const onA = await shareRevocations({ bus: bus(a, 'a'), db: a.db, log, staleAfterMs: () => 15_000, waitMs: 10_000 });
    cleanup.push(onA.stop);
    const started = Date.now();
    await onA.announce('token-1');
    expect(forgotten).toEqual(['token-1']);
    // Answered, not waited out.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(lines.filter((l) => l.level >= LEVEL.warn)).toEqual([]);
  });

  it('waits at most waitMs for a live replica that never answers, names it, and not at all for stopped or stale ones', async () => {
    const { a, bus } = await twoReplicas();
    // "b" beats but runs no follower; "gone" stopped cleanly; "old" beat long ago.
    await beat(a, 'gone');
    await markReplicaStopped(a.db, 'gone', Date.now());
    await beat(a, 'old', Date.now() - 60_000);
    const { log, lines } = captureLog();
    const onA = await shareRevocations({ bus: bus(a, 'a'), db: a.db, log, staleAfterMs: () => 15_000, waitMs: 300 });
    cleanup.push(onA.stop);
    const started = Date.now();
    await onA.announce('token-2');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const warned = lines.filter((l) => l.level === LEVEL.warn);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ token: 'token-2', replicas: ['b'] });
    expect(warned[0]?.msg).toMatch(/^token revoked: some replicas did not say they forgot it/);
  });

  it('refuses a malformed announcement in one line and forgets nothing; a good one after it is followed', async () => {
    const { a, b, bus } = await twoReplicas();
    const forgotten: string[] = [];
    const { log, lines } = captureLog();
    const onB = await shareRevocations({
      bus: bus(b, 'b', log),
      db: b.db,
      log,
      staleAfterMs: () => 15_000,
      forget: (id) => void forgotten.push(id),
    });
    cleanup.push(onB.stop);
    const sender = bus(a, 'a');
    await sender.publish(REVOKED_TOPIC, { id: 42 });
    await sender.publish(REVOKED_TOPIC, { id: 'token-3', ref: 'r' });
    await waitFor(() => forgotten.length === 1, { what: 'the good announcement followed' });
    expect(forgotten).toEqual(['token-3']);
    const refused = lines.filter((l) => l.level === LEVEL.warn);
    expect(refused).toHaveLength(1);
    expect(String((refused[0]?.err as { message?: string })?.message)).toBe(
      'tokens.revoked: {"id":42} is not {"id": string, "ref": string}; ignored',
    );
  });

  it('forgets every token when its listening connection comes back (announcements may have been missed)', async () => {
    const { b, bus } = await twoReplicas();
    let cleared = 0;
    const onB = await shareRevocations({
      bus: bus(b, 'b'),
      db: b.db,
      log: captureLog().log,
      staleAfterMs: () => 15_000,
      forget: () => undefined,
      forgetAll: () => {
        cleared += 1;
      },
    });
    cleanup.push(onB.stop);
    expect(cleared).toBe(1);
    const admin = b.postgres as postgres.Sql;
    await admin`select pg_terminate_backend(pid) from pg_stat_activity
      where pid <> pg_backend_pid() and datname = current_database() and query like 'listen %'`;
    await waitFor(() => cleared === 2, { what: 'listening again' });
  });
});
