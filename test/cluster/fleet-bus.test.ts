/**
 * The fleet bus (ADR 040) on the run's real PostgreSQL: two replicas' pools on one database,
 * messages both ways, a large one through `fleet_messages`, and messages flowing again after
 * the listening connection's backend is terminated or the database is unreachable for a
 * while (postgres.js reconnects and re-listens; `onReady` runs again).
 */
import pino from 'pino';
import postgres, { type Sql } from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { createFleetBus, type FleetBus, type FleetMessage } from '../../src/cluster/index.js';
import { captureLog } from '../support/capture-log.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const log = pino({ level: 'silent' });
const OUTAGE_MS = 1_500;

/** Two replicas' buses on one fresh database, and an admin connection to it. */
async function twoReplicas(): Promise<{ a: FleetBus; b: FleetBus; admin: Sql }> {
  const database = await createPostgresDatabase();
  cleanup.push(database.drop);
  const pool = (name: string) => {
    const sql = postgres(database.url, { max: 2, onnotice: () => {}, connection: { application_name: name } });
    cleanup.push(() => sql.end({ timeout: 1 }));
    return sql;
  };
  const a = createFleetBus({ sql: pool('replica-a'), replica: 'a', log });
  const b = createFleetBus({ sql: pool('replica-b'), replica: 'b', log });
  cleanup.push(
    () => a.close(),
    () => b.close(),
  );
  return { a, b, admin: pool('admin') };
}

/** Collect what `bus` receives on `topic`. */
async function collect(bus: FleetBus, topic: string, onReady?: () => void) {
  const got: FleetMessage[] = [];
  const stop = await bus.subscribe(topic, (message) => void got.push(message), onReady ? { onReady } : {});
  return { got, stop };
}

describe('the fleet bus', () => {
  it('delivers a message to every replica listening, naming its sender', async () => {
    const { a, b } = await twoReplicas();
    const onA = await collect(a, 'greetings');
    const onB = await collect(b, 'greetings');
    const other = await collect(b, 'other');
    await a.publish('greetings', { hello: 'fleet', n: 1 });
    await waitFor(() => onA.got.length === 1 && onB.got.length === 1, { what: 'both replicas got it' });
    expect(onB.got[0]).toEqual({ topic: 'greetings', from: 'a', self: false, payload: { hello: 'fleet', n: 1 } });
    expect(onA.got[0]).toMatchObject({ from: 'a', self: true });
    expect(other.got).toEqual([]);
  });

  it('sends a payload over the NOTIFY limit through fleet_messages, in order with small ones', async () => {
    const { a, b, admin } = await twoReplicas();
    const onB = await collect(b, 'big');
    const large = { text: 'x'.repeat(20_000) };
    await a.publish('big', large);
    await a.publish('big', { small: true });
    await waitFor(() => onB.got.length === 2, { what: 'both messages' });
    expect(onB.got.map((m) => m.payload)).toEqual([large, { small: true }]);
    const [row] = await admin`select count(*)::int as n, min(topic) as topic from fleet_messages`;
    expect(row).toEqual({ n: 1, topic: 'big' });
  });

  it('receives again after the listening backend is terminated (pg_terminate_backend)', async () => {
    const { a, b, admin } = await twoReplicas();
    let ready = 0;
    const onB = await collect(b, 'after-drop', () => {
      ready += 1;
    });
    expect(ready).toBe(1);
    await a.publish('after-drop', 1);
    await waitFor(() => onB.got.length === 1, { what: 'the first message' });
    const killed = await admin`select pg_terminate_backend(pid) as done from pg_stat_activity
      where application_name = 'replica-b' and query like 'listen %'`;
    expect(killed).toEqual([{ done: true }]);
    await waitFor(() => ready === 2, { what: 'listening again after the reconnect' });
    await a.publish('after-drop', 2);
    await waitFor(() => onB.got.length === 2, { what: 'the message after the reconnect' });
    expect(onB.got.map((m) => m.payload)).toEqual([1, 2]);
  });

  it('receives again after an outage longer than a reconnect: the database unreachable, then back', async () => {
    const { url, drop } = await createPostgresDatabase();
    cleanup.push(drop);
    const target = new URL(url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    cleanup.push(() => proxy.close());
    const through = new URL(url);
    through.port = String(proxy.port);
    const pool = (to: string) => {
      const sql = postgres(to, { max: 2, onnotice: () => {}, connect_timeout: 1 });
      cleanup.push(() => sql.end({ timeout: 1 }));
      return sql;
    };
    const a = createFleetBus({ sql: pool(url), replica: 'a', log });
    const b = createFleetBus({ sql: pool(through.href), replica: 'b', log });
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    let ready = 0;
    const onB = await collect(b, 'outage', () => {
      ready += 1;
    });
    await a.publish('outage', 1);
    await waitFor(() => onB.got.length === 1, { what: 'the first message' });
    proxy.down();
    // Down for longer than a connection attempt may take (connect_timeout 1 s): the listen's retries outlast it.
    const downAt = Date.now();
    await waitFor(() => proxy.refused() >= 2 && Date.now() - downAt > OUTAGE_MS, { what: 'an outage of 1.5 s' });
    await a.publish('outage', 'lost while down');
    proxy.up();
    await waitFor(() => ready >= 2, { what: 'listening again after the outage' });
    await a.publish('outage', 2);
    await waitFor(() => onB.got.some((m) => m.payload === 2), { what: 'the message after the outage' });
    expect(onB.got.map((m) => m.payload)).toEqual([1, 2]);
  });

  it('says once, not at every message, when its messages cannot go out', async () => {
    const { url, drop } = await createPostgresDatabase();
    cleanup.push(drop);
    // A pool that has ended: every publish fails at once (an outage makes postgres.js wait instead).
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    await sql.end({ timeout: 1 });
    const captured = captureLog();
    const bus = createFleetBus({ sql, replica: 'b', log: captured.log });
    for (const payload of [1, 2, 3]) await expect(bus.publish('gone', payload)).rejects.toThrow();
    expect(captured.lines.filter((line) => line.msg.startsWith('fleet bus:')).map((line) => line.msg)).toEqual([
      'fleet bus: a message could not be sent; the other replicas miss what this one publishes until it can',
    ]);
  });

  it('stops delivering once a subscription is stopped', async () => {
    const { a, b } = await twoReplicas();
    const stopped = await collect(b, 'stop');
    const kept = await collect(b, 'stop');
    await stopped.stop();
    await a.publish('stop', 'after');
    await waitFor(() => kept.got.length === 1, { what: 'the kept subscription' });
    expect(stopped.got).toEqual([]);
  });

  it('refuses a topic that is not a short lowercase name, sending nothing', async () => {
    const { a } = await twoReplicas();
    await expect(a.publish('Bad Topic', 1)).rejects.toThrow(/^fleet bus: topic "Bad Topic" must match/);
    await expect(a.subscribe('', () => undefined)).rejects.toThrow(/must match/);
  });
});
