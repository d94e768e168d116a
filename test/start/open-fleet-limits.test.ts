/**
 * Limits across replicas (issue 22 part 6, ADR 042): two services (replicas) on one
 * PostgreSQL database, each with its own home, over real HTTP. A per-token rate limit holds
 * across both (the total admitted within ±10 % of the configured number); the session cap
 * counts both replicas' sessions, a closed session frees its place at once, and the sessions
 * of a replica that stopped refreshing its rows stop counting; with the database gone,
 * every request is still answered, each replica applies the limits alone, and each logs one
 * warning.
 */
import { pino } from 'pino';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { createSessionRegistry } from '../../src/gateway/session/session-registry.js';
import { openFleetLimits } from '../../src/start/open-fleet-limits.js';
import { createDb } from '../../src/storage/create-db.js';
import { captureLog, LEVEL, type LogLine } from '../support/capture-log.js';
import { postInitialize } from '../support/initialize.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const REQUESTS = 40;
const auth = { authorization: `Bearer ${TEST_TOKEN}` };
const OUTAGE_WARNING =
  'the database does not answer the fleet-wide limits: each replica now applies the rate limits and session caps alone, until it answers again';

describe('limits across two replicas on one PostgreSQL', () => {
  const replicas: TestService[] = [];
  const logs: LogLine[][] = [];
  let sql: postgres.Sql;
  let drop: () => Promise<void>;
  let recreate: () => Promise<void>;

  beforeAll(async () => {
    const database = await createPostgresDatabase();
    ({ drop, recreate } = database);
    sql = postgres(database.url, { max: 1, onnotice: () => {} });
    for (const id of ['a', 'b']) {
      const { log, lines } = captureLog('info');
      logs.push(lines);
      replicas.push(
        await startTestService(
          {
            mcpServers: {},
            // A window far longer than the test: no count starts over while it runs.
            limits: { perClient: { requests: REQUESTS, perSeconds: 600 }, fleet: { sessionHeartbeatMs: 200 } },
            gateway: { maxSessionsPerToken: 2 },
          },
          {
            env: {
              BOTERNITY_DATABASE_URL: database.url,
              BOTERNITY_REPLICA_ID: id,
              BOTERNITY_KEYSTORE_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
            },
            log,
          },
        ),
      );
    }
  }, 60_000);
  // A test drops the database: each replica's stop would then keep trying to write its audit
  // rows until the writer's close deadline (10 s, ~11 s in all here; past 30 s once on a loaded
  // clean-clone CI run). Made again first, it takes them at once.
  afterAll(async () => {
    await recreate?.().catch(() => undefined);
    await Promise.allSettled(replicas.map((r) => r.stop()));
    await sql?.end();
    await drop?.();
  }, 60_000);

  const [a, b] = [() => replicas[0] as TestService, () => replicas[1] as TestService];
  /**
   * `n` requests of `token` sent at once, alternating replicas; their statuses. A GET of
   * `/mcp` without a session passes the perimeter (counted) and is then refused (400); over
   * the limit it is refused first (429).
   */
  const burst = (n: number, targets: TestService[], token: string) =>
    Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const target = targets[i % targets.length] as TestService;
        const headers = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
        return (await fetch(`${target.service.url}/mcp`, { headers })).status;
      }),
    );
  const newToken = async (name: string) =>
    (await a().send<{ id: string; token: string }>('POST', '/api/tokens', { name })).body;
  const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

  it('holds a per-token rate limit across both replicas (within ±10 % of the configured number)', async () => {
    const { id, token } = await newToken('shared');
    const statuses = await burst(3 * REQUESTS, [a(), b()], token);
    expect(count(statuses, 400) + count(statuses, 429)).toBe(3 * REQUESTS);
    expect(count(statuses, 400)).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(count(statuses, 400)).toBeLessThanOrEqual(REQUESTS * 1.1);
    const [row] = await sql`select points from rate_limits where key = ${`client:token:${id}`}`;
    // The limit's points, and one more per replica: the ask that found the window full.
    // The refusals after it were answered from memory, without a round trip.
    expect(row?.points).toBe(REQUESTS + 2);
    for (const lines of logs) expect(lines.filter((l) => l.msg === OUTAGE_WARNING)).toEqual([]);
  });

  it('counts sessions across replicas: a token at its cap on one is refused on the other until one ends', async () => {
    const open = (on: TestService) => postInitialize(`${on.service.url}/mcp`, auth);
    expect((await open(a())).status).toBe(200);
    expect((await open(a())).status).toBe(200);
    await waitFor(async () => (await sql`select count(*)::int as n from fleet_sessions`)[0]?.n === 2, {
      what: 'two rows',
    });
    const refused = await open(b());
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.message).toBe(
      'too many sessions for this token (gateway.maxSessionsPerToken: 2), and none of them idle to close; end some with DELETE',
    );
    // One ends on a: its place is free on b at once (its row is deleted when it ends).
    const [first] = a()
      .service.gateway.sessions()
      .filter((s) => s.owner !== null);
    const ended = await fetch(`${a().service.url}/mcp`, {
      method: 'DELETE',
      headers: { ...auth, 'mcp-session-id': first?.id ?? '', 'mcp-protocol-version': '2025-11-25' },
    });
    expect(ended.status).toBe(200);
    await waitFor(async () => (await sql`select count(*)::int as n from fleet_sessions`)[0]?.n === 1, {
      what: 'the row deleted',
    });
    expect((await open(b())).status).toBe(200);
  });

  it('stops counting the sessions of a replica that stopped refreshing them (it died): they do not hold the cap', async () => {
    for (const s of [...a().service.gateway.sessions(), ...b().service.gateway.sessions()]) await s.close();
    await waitFor(async () => (await sql`select count(*)::int as n from fleet_sessions`)[0]?.n === 0, {
      what: 'no rows',
    });
    // A replica that died holding two of the admin's sessions: rows nobody refreshes.
    await sql`insert into fleet_sessions (session_id, owner, holder) values ('gone-1', 'admin', 'dead/1'), ('gone-2', 'admin', 'dead/1')`;
    expect((await postInitialize(`${b().service.url}/mcp`, auth)).status).toBe(429);
    // Three heartbeats (600 ms) later they no longer count, and a live replica deletes them.
    await waitFor(
      async () => (await sql`select count(*)::int as n from fleet_sessions where holder = 'dead/1'`)[0]?.n === 0,
      {
        what: 'the dead rows deleted',
      },
    );
    expect((await postInitialize(`${b().service.url}/mcp`, auth)).status).toBe(200);
  });

  it('with the database gone: every request answered, each replica limits alone, one warning each', async () => {
    // The admin token: issued tokens are looked up in the database (part 7's concern, not the limits').
    const outageToken = TEST_TOKEN;
    await sql.end();
    await drop();
    const before = Date.now();
    // A session still opens on each (the fleet's count fails: each replica counts its own).
    for (const replica of [a(), b()])
      expect((await postInitialize(`${replica.service.url}/mcp`, auth)).status).toBe(200);
    // Each replica's own counters started fresh when the shared table stopped answering.
    const statuses = await burst(3 * REQUESTS, [a(), b()], outageToken);
    expect(count(statuses, 400) + count(statuses, 429)).toBe(3 * REQUESTS);
    // Each replica applies the configured number alone (one point each went to the initialize).
    expect(count(statuses, 400)).toBe(2 * (REQUESTS - 1));
    // More requests: still answered, still no second warning.
    expect(count(await burst(20, [a(), b()], outageToken), 429)).toBe(20);
    expect(Date.now() - before).toBeLessThan(10_000);
    for (const lines of logs)
      expect(lines.filter((l) => l.level === LEVEL.warn && l.msg === OUTAGE_WARNING)).toHaveLength(1);
  });
});

describe('a single service on SQLite', () => {
  it('gets no fleet limits: its rate limits stay in memory and its session caps in its registry', async () => {
    const store = await createDb({ url: ':memory:' });
    try {
      const config = parseConfig({}, null);
      const sessions = createSessionRegistry();
      expect(
        openFleetLimits({ store, sessions, config: () => config, log: pino({ level: 'silent' }), replica: 'r1' }),
      ).toBe(null);
    } finally {
      await store.close();
    }
  });
});
