/**
 * What clients changed about their sealed sessions (issue 22, ADR 039 §2): a logging level
 * and resource subscriptions by the id's digest, read back as the requests that replay them;
 * a later level replaces an earlier one, an unsubscribe removes its subscribe, other methods
 * are not kept, and rows past a sealed id's lifetime go.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenDb } from '../../src/storage/create-db.js';
import { createSessionStates } from '../../src/storage/session-states-repo.js';
import { DIALECTS, openTestDb } from '../support/test-db.js';

describe.each(DIALECTS)('createSessionStates (%s)', (dialect) => {
  let store: OpenDb;
  beforeEach(async () => {
    store = await openTestDb(dialect);
  });
  afterEach(() => store.close());

  it('keeps a session’s level and subscriptions, and replays them as requests', async () => {
    const states = createSessionStates(store.db, { maxAgeMs: 60_000 });
    await states.record('d1', { method: 'logging/setLevel', params: { level: 'info' } });
    await states.record('d1', { method: 'resources/subscribe', params: { uri: 'up__a://x' } });
    await states.record('d1', { method: 'resources/subscribe', params: { uri: 'up__a://y' } });
    await states.record('d1', { method: 'logging/setLevel', params: { level: 'error' } });
    await states.record('d1', { method: 'resources/unsubscribe', params: { uri: 'up__a://x' } });
    // Not changes, or malformed: not kept.
    await states.record('d1', { method: 'tools/call', params: { name: 'x' } });
    await states.record('d1', { method: 'logging/setLevel', params: {} });
    await states.record('d2', { method: 'resources/subscribe', params: { uri: 'other' } });
    const replay = await states.read('d1');
    expect(replay.map(({ method, params }) => ({ method, params }))).toEqual([
      { method: 'logging/setLevel', params: { level: 'error' } },
      { method: 'resources/subscribe', params: { uri: 'up__a://y' } },
    ]);
    expect(new Set(replay.map((r) => r.id)).size).toBe(2);
    expect(await states.read('nothing')).toEqual([]);
  });

  it('forgets sessions older than a sealed id lives', async () => {
    let clock = 1_000_000;
    const states = createSessionStates(store.db, { maxAgeMs: 10_000, now: () => clock });
    await states.record('old', { method: 'logging/setLevel', params: { level: 'info' } });
    clock += 70_000;
    await states.record('new', { method: 'logging/setLevel', params: { level: 'info' } });
    expect(await states.read('old')).toEqual([]);
    expect(await states.read('new')).toHaveLength(1);
  });
});
