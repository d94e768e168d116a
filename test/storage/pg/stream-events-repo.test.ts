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
beforeAll(async () => {
  const database = await createPostgresDatabase();
  drop = database.drop;
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
