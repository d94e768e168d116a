/**
 * The recent events of the sessions' GET streams, fleet-wide (issue 22 part 3, ADR 039 §5):
 * the replica holding a session's GET stream writes each event it sends or logs there
 * (`stream_events`, PostgreSQL alone), so that a client resuming with `Last-Event-ID` on
 * another replica is replayed what followed. Writes are not awaited by the stream (an event
 * leaves at once; a resumption may miss what was written in the same millisecond). They
 * leave in order, one statement at a time (what came meanwhile in one `INSERT`), so `n` is
 * the stream's order; rows older than `keepMs` are deleted now and then by the writes. A POST
 * answered as SSE (progress, notifications, requests before its answer) keeps its events too,
 * under its stream, so a resumption on another replica follows it to its answer; a plain
 * JSON answer writes nothing.
 * @module
 */
import type { Logger } from 'pino';
import type { Sql } from 'postgres';

/** One event a resumption replays: its id as the client saw it, and its JSON text. */
export type KeptStreamEvent = { readonly id: string; readonly data: string };

/** The kept events of GET streams, and of POST streams. */
export type StreamEvents = {
  /** Keep event `id` of session `digest`'s GET stream, or with `stream` of that POST stream (not awaited). */
  record(digest: string, id: string, data: string, stream?: string | null): void;
  /** The events of `digest`'s GET stream after `id`, oldest first (at most `max`); null when `id` is not kept. */
  after(digest: string, id: string): Promise<KeptStreamEvent[] | null>;
  /** The events of the POST stream that sent `digest`'s event `id`, after it (at most `max`); null when `id` is not kept. */
  afterInRequest(digest: string, id: string): Promise<KeptStreamEvent[] | null>;
};

/** How long an event is kept: a client that was away longer lists again. */
export const STREAM_EVENTS_KEEP_MS = 5 * 60_000;
/** The most events one resumption replays. */
export const STREAM_EVENTS_MAX = 1_000;
/** Writes between two deletions of expired rows. */
const PRUNE_EVERY = 200;
/**
 * The most event text waiting for the database (X8): while it stalls, the oldest waiting
 * events go past this (a resumption elsewhere misses them, as it would miss any not written).
 */
export const STREAM_EVENTS_MAX_PENDING_BYTES = 4 * 1024 * 1024;

/** The kept events over `sql`. */
export function createStreamEvents({
  sql,
  log,
  keepMs = STREAM_EVENTS_KEEP_MS,
  max = STREAM_EVENTS_MAX,
  maxPendingBytes = STREAM_EVENTS_MAX_PENDING_BYTES,
}: {
  sql: Sql;
  log: Pick<Logger, 'warn'>;
  keepMs?: number;
  max?: number;
  maxPendingBytes?: number;
}): StreamEvents {
  const now = () => sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  let writes = 0;
  let pending: { session: string; event_id: string; data: string; stream: string | null }[] = [];
  let pendingBytes = 0;
  let flushing = false;
  /** Said once a stall (a failed write, events dropped), not for every batch. */
  let failing = false;
  const failed = (error: unknown, what: string) => {
    if (!failing) log.warn({ err: error }, what);
    failing = true;
  };
  /** Write what is pending, then what came meanwhile, until nothing is left: one statement at a time, in order. */
  const flush = async () => {
    flushing = true;
    while (pending.length > 0) {
      const rows = pending;
      pending = [];
      pendingBytes = 0;
      // At the first write, then each time the writes pass another PRUNE_EVERY.
      const due = writes === 0 || Math.floor((writes + rows.length) / PRUNE_EVERY) > Math.floor(writes / PRUNE_EVERY);
      writes += rows.length;
      if (due)
        await sql`delete from stream_events where at < ${now()} - ${keepMs}`.catch((error: unknown) =>
          log.warn({ err: error }, 'stream events: expired ones not deleted'),
        );
      const kept = await sql`insert into stream_events ${sql(rows, 'session', 'event_id', 'data', 'stream')}`.then(
        () => true,
        (error: unknown) => failed(error, 'stream events not kept: a resumption on another replica misses them'),
      );
      if (kept) failing = false;
    }
    flushing = false;
  };
  return {
    record(digest, id, data, stream = null) {
      pending.push({ session: digest, event_id: id, data, stream });
      pendingBytes += data.length;
      // The database stalls: the oldest waiting go (X8), said once.
      if (pendingBytes > maxPendingBytes) {
        while (pendingBytes > maxPendingBytes / 2 && pending.length > 1)
          pendingBytes -= (pending.shift() as { data: string }).data.length;
        failed(null, 'stream events: the database is slow to take them; the oldest waiting were dropped');
      }
      if (!flushing) void flush();
    },
    async after(digest, id) {
      const [anchor] = await sql`select n from stream_events
        where session = ${digest} and event_id = ${id} and stream is null and at >= ${now()} - ${keepMs}`;
      if (!anchor) return null;
      const rows = await sql`select event_id, data from stream_events
        where session = ${digest} and stream is null and n > ${anchor.n} order by n limit ${max}`;
      return rows.map((r) => ({ id: String(r.event_id), data: String(r.data) }));
    },
    async afterInRequest(digest, id) {
      const [anchor] = await sql`select n, stream from stream_events
        where session = ${digest} and event_id = ${id} and stream is not null and at >= ${now()} - ${keepMs}`;
      if (!anchor) return null;
      const rows = await sql`select event_id, data from stream_events
        where session = ${digest} and stream = ${anchor.stream} and n > ${anchor.n} order by n limit ${max}`;
      return rows.map((r) => ({ id: String(r.event_id), data: String(r.data) }));
    },
  };
}
