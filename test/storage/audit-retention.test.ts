/**
 * Audit retention runs on the leader of the run-once jobs only (ADR 041): a follower prunes
 * nothing, and prunes at once when it becomes the leader; without a leader it prunes (SQLite).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startAuditRetention } from '../../src/storage/audit-retention.js';
import type { OpenDb } from '../../src/storage/create-db.js';
import { mcpAuditTable } from '../../src/storage/schema.js';
import { testLogger } from '../support/fixtures.js';
import { DIALECTS, openTestDb } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const log = testLogger();
let store: OpenDb | undefined;
const stops: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await store?.close();
});

/** A leadership the test hands over by hand. */
function handLeadership(leading: boolean) {
  const listeners = new Set<(leader: boolean) => void>();
  return {
    isLeader: () => leading,
    onChange: (listener: (leader: boolean) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    lead: () => {
      leading = true;
      for (const listener of listeners) listener(true);
    },
  };
}

describe.each(DIALECTS)('audit retention (%s)', (dialect) => {
  const seed = async () => {
    const opened = await openTestDb(dialect);
    store = opened;
    await opened.db.insert(mcpAuditTable).values([
      { direction: 'client', eventType: 'old', timestamp: new Date(Date.now() - 40 * 86_400_000) },
      { direction: 'client', eventType: 'new', timestamp: new Date() },
    ]);
    return { db: opened.db, count: async () => (await opened.db.select().from(mcpAuditTable)).length };
  };

  it('a follower keeps every row; once it leads, it prunes at once', async () => {
    const { db, count } = await seed();
    const leader = handLeadership(false);
    let passes = 0;
    const days = () => {
      passes += 1;
      return 30;
    };
    stops.push(startAuditRetention({ db, cap: null, days, log, leader }));
    // The start's pass was skipped: it never asked how old is too old.
    expect(passes).toBe(0);
    expect(await count()).toBe(2);
    leader.lead();
    await waitFor(async () => (await count()) === 1, { what: 'the old row pruned by the new leader' });
  });

  it('with no leadership (one process), prunes at start', async () => {
    const { db, count } = await seed();
    stops.push(startAuditRetention({ db, cap: null, days: () => 30, log }));
    await waitFor(async () => (await count()) === 1, { what: 'the old row pruned' });
  });
});
