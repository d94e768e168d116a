/**
 * One replica id, two processes (SPEC K5): on a fleet's PostgreSQL database a replica whose
 * `BOTERNITY_REPLICA_ID` a live replica already beats with is refused at start with one line
 * (two replicas with one id take each other's fleet messages for their own), while one
 * started again in place of a replica that was killed (its row fresh, but beating no more) or
 * stopped takes its id over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assertReplicaIdFree, startHeartbeat } from '../../src/cluster/index.js';
import { ConfigError } from '../../src/errors.js';
import type { OpenDb } from '../../src/storage/create-db.js';
import { beatReplica } from '../../src/storage/replica-repo.js';
import { testLogger } from '../support/fixtures.js';
import { openSharedPostgres } from '../support/test-db.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
const EVERY_MS = 150;
const everyMs = () => EVERY_MS;

describe('a replica id in use', () => {
  it('refuses an id a live replica beats with, in one line naming the variable', async () => {
    const shared = await openSharedPostgres(2);
    cleanup.push(() => shared.close());
    const [a, b] = shared.stores as [OpenDb, OpenDb];
    const log = testLogger();
    const live = await startHeartbeat({
      db: a.db,
      id: 'r1',
      version: '1.0.0',
      address: 'http://10.0.0.1:7777',
      everyMs,
      leader: () => false,
      log,
    });
    cleanup.push(() => live.stop());
    const refused = await assertReplicaIdFree({ db: b.db, id: 'r1', everyMs, log }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    const message = (refused as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(
      /^BOTERNITY_REPLICA_ID "r1" is in use: a live replica beats with it \(at .+, http:\/\/10\.0\.0\.1:7777\); give each replica its own id$/,
    );
    // Another id is free.
    await assertReplicaIdFree({ db: b.db, id: 'r2', everyMs, log });
  });

  it('takes over the id of a replica killed moments ago, and of one stopped', async () => {
    const shared = await openSharedPostgres(1);
    cleanup.push(() => shared.close());
    const [store] = shared.stores as [OpenDb];
    const log = testLogger();
    // A beat written just now by a process that beats no more (killed).
    await beatReplica(store.db, { id: 'r1', version: '1.0.0', address: null, at: Date.now(), leader: false }, true);
    const started = Date.now();
    await assertReplicaIdFree({ db: store.db, id: 'r1', everyMs, log });
    // It waited a beat and a half to tell.
    expect(Date.now() - started).toBeGreaterThanOrEqual(EVERY_MS);
    const beat = await startHeartbeat({
      db: store.db,
      id: 'r1',
      version: '1.0.0',
      address: null,
      everyMs,
      leader: () => false,
      log,
    });
    await beat.stop();
    // Stopped cleanly: free at once.
    const again = Date.now();
    await assertReplicaIdFree({ db: store.db, id: 'r1', everyMs, log });
    expect(Date.now() - again).toBeLessThan(EVERY_MS);
  });
});
