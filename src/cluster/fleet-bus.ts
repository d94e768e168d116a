/**
 * The fleet bus (issue 22, ADR 039 §3, ADR 040): typed publish/subscribe between the replicas
 * of one PostgreSQL database over LISTEN/NOTIFY. A topic is a channel (`bnity.<topic>`); a
 * message is JSON naming its sender. NOTIFY payloads stop at 8,000 bytes: a larger message
 * is written to `fleet_messages` and its id notified; the subscriber reads it back. Delivery
 * is at most once and only to replicas listening at the time: a subscriber that follows state
 * re-reads it in `onReady`, which runs on every (re)listen, including after postgres.js has
 * reconnected a dropped listening connection.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Sql } from 'postgres';

/** A message as a subscriber gets it: `from` is the sender's replica id (`self` when it is this one). */
export type FleetMessage = {
  readonly topic: string;
  readonly from: string;
  readonly self: boolean;
  readonly payload: unknown;
};

/** Options of {@link FleetBus.subscribe}. */
export type SubscribeOptions = {
  /** Runs once listening, and again after every reconnect (messages sent meanwhile are lost). */
  onReady?(): void;
};

/** Publish/subscribe across the replicas of one database. */
export type FleetBus = {
  readonly replica: string;
  /** Send `payload` (JSON-serializable) to every replica listening on `topic`, this one included. */
  publish(topic: string, payload: unknown): Promise<void>;
  /** Listen on `topic`; resolves once listening, with the function that stops it. */
  subscribe(
    topic: string,
    handler: (message: FleetMessage) => void | Promise<void>,
    options?: SubscribeOptions,
  ): Promise<() => Promise<void>>;
  /** Stop every subscription of this bus (the pool itself is its owner's to end). */
  close(): Promise<void>;
};

/** Options of {@link createFleetBus}. */
export type FleetBusDeps = {
  /** The postgres.js pool (`OpenDb.postgres`); LISTEN takes one connection of its own. */
  sql: Sql;
  /** This replica's id (`replicaId()`). */
  replica: string;
  log: Pick<Logger, 'warn'>;
  /** Larger payloads go through `fleet_messages` (default 7,900 bytes: PostgreSQL refuses 8,000 and over). */
  inlineBytes?: number;
  /** How long a large message is kept for its subscribers to read (default 5 minutes). */
  keepMs?: number;
};

const TOPIC = /^[a-z][a-z0-9_.-]{0,47}$/;
const INLINE_BYTES = 7_900;
const KEEP_MS = 5 * 60_000;
/**
 * How long a stopping subscription waits for its `UNLISTEN` to be answered. Nothing depends
 * on the answer (later notifications are ignored at once, and the listening connection ends
 * with the pool): a database that does not answer must not hold a replica's stop up.
 */
const UNLISTEN_WAIT_MS = 1_000;

/** What travels in a NOTIFY: the sender and the payload, or the id of the row holding it. */
type Envelope = { f: string; p?: unknown; ref?: string };

/** A fleet bus over `sql`. */
export function createFleetBus({
  sql,
  replica,
  log,
  inlineBytes = INLINE_BYTES,
  keepMs = KEEP_MS,
}: FleetBusDeps): FleetBus {
  const stops = new Set<() => Promise<void>>();

  const readStored = async (id: string): Promise<unknown> => {
    const [row] = await sql<{ payload: string }[]>`select payload from fleet_messages where id = ${id}`;
    if (!row) throw new Error(`fleet message ${id} is gone (kept ${keepMs} ms)`);
    return JSON.parse(row.payload);
  };

  const send = async (topic: string, payload: unknown): Promise<void> => {
    const channel = channelOf(topic);
    const inline = JSON.stringify({ f: replica, p: payload } satisfies Envelope);
    if (Buffer.byteLength(inline) <= inlineBytes) {
      await sql.notify(channel, inline);
      return;
    }
    const id = randomUUID();
    // One statement, its own transaction: old large messages go as new ones come (no job of
    // its own, one indexed delete), and the notification is sent at commit, so a subscriber
    // always finds the row. Not `sql.begin`: postgres.js 3.4.9 can crash the process when the
    // backend of a reserved connection dies (porsager/postgres#1208), as in an outage.
    await sql`with gone as (delete from fleet_messages where created_at < ${Date.now() - keepMs} returning 1),
      kept as (insert into fleet_messages (id, topic, payload) values (${id}, ${topic}, ${JSON.stringify(payload)}) returning id)
      select pg_notify(${channel}, ${JSON.stringify({ f: replica, ref: id } satisfies Envelope)}) from kept`;
  };
  // Said once when messages stop going out, once when they go again: every publisher may ignore the rejection.
  let failing = false;

  return {
    replica,
    async publish(topic, payload) {
      try {
        await send(topic, payload);
      } catch (error) {
        if (!failing)
          log.warn(
            { err: error, topic },
            'fleet bus: a message could not be sent; the other replicas miss what this one publishes until it can',
          );
        failing = true;
        throw error;
      }
      if (failing) log.warn({ topic }, 'fleet bus: messages go out again');
      failing = false;
    },
    async subscribe(topic, handler, options = {}) {
      const channel = channelOf(topic);
      // One message at a time per subscription, in the order notified (a large one is read first).
      let tail: Promise<void> = Promise.resolve();
      // postgres.js re-listens after a reconnect with a listener its `unlisten` no longer finds: checked here.
      let stopped = false;
      const deliver = async (raw: string) => {
        const envelope = JSON.parse(raw) as Envelope;
        const payload = envelope.ref === undefined ? envelope.p : await readStored(envelope.ref);
        await handler({ topic, from: envelope.f, self: envelope.f === replica, payload });
      };
      const onNotify = (raw: string) => {
        if (stopped) return;
        tail = tail
          .then(() => deliver(raw))
          .catch((error: unknown) => log.warn({ err: error, topic }, 'fleet bus: a message could not be handled'));
      };
      const onReady = () => {
        if (stopped) return;
        try {
          options.onReady?.();
        } catch (error) {
          log.warn({ err: error, topic }, 'fleet bus: a subscriber failed when listening began');
        }
      };
      const { unlisten } = await sql.listen(channel, onNotify, onReady);
      const stop = async () => {
        if (!stops.delete(stop)) return;
        stopped = true;
        await Promise.race([
          unlisten().catch(() => undefined),
          new Promise<void>((resolve) => setTimeout(resolve, UNLISTEN_WAIT_MS).unref()),
        ]);
      };
      stops.add(stop);
      return stop;
    },
    async close() {
      await Promise.all([...stops].map((stop) => stop()));
    },
  };
}

/** The channel of `topic`; a topic is a short lowercase name (`config`, `sessions.changed`). */
function channelOf(topic: string): string {
  if (!TOPIC.test(topic)) throw new Error(`fleet bus: topic "${topic}" must match ${TOPIC}`);
  return `bnity.${topic}`;
}
