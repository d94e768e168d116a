/**
 * The GET streams' events kept for a resumption on another replica (ADR 039 §5) on a real
 * PostgreSQL test database: what followed an event, in order and of its session only; an
 * event not kept (never, or expired) gives null, so the stream starts afresh; expired rows
 * are deleted by later writes.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamEvents } from '../../../src/storage/pg/stream-events-repo.js';
import { createPostgresDatabase } from '../../support/test-db.js';
import { waitFor } from '../../support/wait-for.js';

const log = { warn: () => undefined };
let sql: postgres.Sql;
let drop: () => Promise<void>;
let databaseUrl: string;
beforeAll(async () => {
  const database = await createPostgresDatabase();
  drop = database.drop;
  databaseUrl = database.url;
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
});
afterAll(async () => {
  await sql.end();
  await drop();
});

const count = async () => (await sql`select count(*)::int as n from stream_events`)[0]?.n as number;

describe('createStreamEvents', () => {
  it('gives what followed an event of a session, in order, and null for an event it does not keep', async () => {
    const events = createStreamEvents({ sql, log });
    for (const [session, id] of [
      ['s1', 'aaaaaaaaaag1'],
      ['s2', 'aaaaaaaaaag2'],
      ['s1', 'aaaaaaaaaag3'],
      ['s1', 'bbbbbbbbbbg1'],
    ] as const)
      events.record(session, id, `{"n":"${id}"}`);
    await waitFor(async () => (await count()) >= 4, { what: 'the writes done' });
    expect(await events.after('s1', 'aaaaaaaaaag1')).toEqual([
      { id: 'aaaaaaaaaag3', data: '{"n":"aaaaaaaaaag3"}' },
      { id: 'bbbbbbbbbbg1', data: '{"n":"bbbbbbbbbbg1"}' },
    ]);
    expect(await events.after('s1', 'bbbbbbbbbbg1')).toEqual([]);
    expect(await events.after('s1', 'aaaaaaaaaag9')).toBeNull();
    // Another session's event does not anchor this one's.
    expect(await events.after('s1', 'aaaaaaaaaag2')).toBeNull();
  });

  it('takes an event older than its keeping for one not kept, and deletes such rows as new ones come', async () => {
    const keepNothing = createStreamEvents({ sql, log, keepMs: -1 });
    expect(await count()).toBeGreaterThan(0);
    expect(await keepNothing.after('s1', 'aaaaaaaaaag1')).toBeNull();
    keepNothing.record('s3', 'ccccccccccg1', '{}');
    await waitFor(
      async () => (await sql`select count(*)::int as n from stream_events where session <> 's3'`)[0]?.n === 0,
      {
        what: 'the expired rows deleted',
      },
    );
  });
});

describe('createStreamEvents while the database stalls', () => {
  it('bounds what waits (X8): the oldest waiting go, said once; the newest are written when it answers', async () => {
    const warned: string[] = [];
    const events = createStreamEvents({
      sql,
      log: { warn: ((_: unknown, message: string) => void warned.push(message)) as never },
      maxPendingBytes: 100_000,
    });
    // Another connection holds the table: every insert waits behind it.
    let release: () => void = () => undefined;
    const holder = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const held = holder.begin(async (tx) => {
      await tx`lock table stream_events in access exclusive mode`;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await waitFor(
      async () =>
        (await sql`select count(*)::int as n from pg_locks where mode = 'AccessExclusiveLock' and granted`)[0]?.n > 0,
      {
        what: 'the table held',
      },
    );
    const text = 'x'.repeat(10_000);
    // The first goes to the database (and waits there); the next 49, 490 KB, wait here.
    for (let i = 0; i < 50; i++) events.record('stall', `ccccccccccg${i}`, `{"i":${i},"t":"${text}"}`);
    expect(warned).toEqual(['stream events: the database is slow to take them; the oldest waiting were dropped']);
    release();
    await held;
    await holder.end();
    await waitFor(
      async () => (await sql`select count(*)::int as n from stream_events where session = 'stall'`)[0]?.n >= 5,
      {
        what: 'the kept ones written',
      },
    );
    const ids = (await sql`select event_id from stream_events where session = 'stall' order by n`).map(
      (r) => r.event_id,
    );
    // The first (already sent) and the newest, within the bound; the oldest of those that waited dropped.
    expect(ids[0]).toBe('ccccccccccg0');
    expect(ids.at(-1)).toBe('ccccccccccg49');
    expect(ids.length).toBeLessThanOrEqual(11);
    expect(ids).not.toContain('ccccccccccg1');
  });
});
