/**
 * The resumption buffer of one agent session (SPEC G1, X8): the events sent on its SSE
 * streams, kept so a client that lost a stream can resume it with `Last-Event-ID`.
 * Bounded in bytes and in events, and by the budget all sessions share (a
 * {@link SseBufferPool}); the oldest go first. Event ids are consecutive numbers, so
 * finding one is an index, not a search.
 * @module
 */

import type { PoolLease, SseBufferPool } from '../io/index.js';

/** One stored event: `data` is the JSON text sent, null for a stream's priming event. */
export type LoggedEvent = { readonly id: string; readonly data: string };

/** The log of one session's SSE events. */
export type SseEventLog = {
  /** Store an event of `stream` (null data: a priming event, an anchor to resume from); returns its id. */
  append(stream: string, data: string | null): string;
  /** The stream an event id belongs to; undefined when the id is unknown or was evicted. */
  streamOf(eventId: string): string | undefined;
  /** The events of the same stream after `eventId`, priming events left out. */
  after(eventId: string): LoggedEvent[];
  /** Bytes of event data held now. */
  bytes(): number;
  /** Whether `eventId` was one of this log's and has been dropped (a resume past the window). */
  evicted(eventId: string): boolean;
  /** Cluster mode: whether `eventId` was sent by another replica, and on which kind of stream; null: it was not. */
  foreign(eventId: string): 'standalone' | 'request' | null;
  /** Drop everything and leave the shared pool (the session closed). */
  dispose(): void;
};

/** Limits of {@link createSseEventLog}. */
export type SseEventLogOptions = {
  maxBytes?: number;
  maxEvents?: number;
  pool?: SseBufferPool;
  /**
   * Cluster mode: this replica's tag (10 hex), put in front of each id with `g` (the standalone
   * stream) or `p` (a POST's), so that another replica tells an id of this one's from its own.
   */
  tag?: string;
  /**
   * Cluster mode: each event of a POST's stream (its request's stream id, its id, its text;
   * null for the priming event), kept for a resumption on another replica (ADR 039 §5).
   */
  onRequestEvent?: (stream: string, id: string, data: string | null) => void;
};

/** The id of the standalone (GET) stream in a log. */
export const STANDALONE = '_GET_stream';
const TAGGED = /^([0-9a-f]{10})([gp])(\d{1,15})$/;

type Entry = { seq: number; ticket: number; stream: string; data: string | null; size: number };

const NO_POOL: PoolLease = { ticket: () => 0, add: () => undefined, leave: () => undefined };

/** Default bound of one session's buffer: 1 MiB of event data. */
export const DEFAULT_EVENT_LOG_BYTES = 1024 * 1024;

/** Create an empty log. */
export function createSseEventLog({
  maxBytes = DEFAULT_EVENT_LOG_BYTES,
  maxEvents = 1_000,
  pool,
  tag = '',
  onRequestEvent,
}: SseEventLogOptions = {}): SseEventLog {
  let entries: Entry[] = [];
  let head = 0;
  let nextSeq = 1;
  let held = 0;

  const dropOldest = () => {
    const entry = entries[head] as Entry;
    const size = entry.size;
    // Its slot stays until the array is compacted; its text goes now.
    entry.data = null;
    held -= size;
    head += 1;
    lease.add(-size);
  };
  const lease = pool
    ? pool.join({ oldest: () => (entries.length > head ? (entries[head] as Entry).ticket : null), dropOldest })
    : NO_POOL;
  const evict = () => {
    while (entries.length - head > 0 && (held > maxBytes || entries.length - head > maxEvents)) dropOldest();
    // Drop evicted slots now and then, so the array does not grow without end.
    if (head > 256 && head * 2 > entries.length) {
      entries = entries.slice(head);
      head = 0;
    }
  };
  const idOf = (stream: string, seq: number): string =>
    tag === '' ? String(seq) : `${tag}${stream === STANDALONE ? 'g' : 'p'}${seq}`;
  /** The number of one of this log's ids; NaN when it is none. */
  const seqOf = (eventId: string): number => {
    if (tag === '') return /^\d{1,15}$/.test(eventId) ? Number(eventId) : Number.NaN;
    const match = TAGGED.exec(eventId);
    return match && match[1] === tag ? Number(match[3]) : Number.NaN;
  };
  /** Where `eventId` is in `entries`, or -1. */
  const indexOf = (eventId: string): number => {
    const first = entries[head];
    const seq = seqOf(eventId);
    if (!first || Number.isNaN(seq)) return -1;
    const at = head + seq - first.seq;
    return at >= head && at < entries.length ? at : -1;
  };

  return {
    append(stream, data) {
      const seq = nextSeq++;
      const size = data === null ? 0 : Buffer.byteLength(data);
      entries.push({ seq, ticket: lease.ticket(), stream, data, size });
      held += size;
      evict();
      // After this log's own bound: the shared budget may then take the oldest of anyone's.
      lease.add(size);
      const id = idOf(stream, seq);
      if (onRequestEvent && stream !== STANDALONE) onRequestEvent(stream, id, data);
      return id;
    },
    streamOf: (eventId) => entries[indexOf(eventId)]?.stream,
    after(eventId) {
      const at = indexOf(eventId);
      const from = entries[at];
      if (!from) return [];
      const out: LoggedEvent[] = [];
      for (let i = at + 1; i < entries.length; i++) {
        const e = entries[i] as Entry;
        if (e.stream === from.stream && e.data !== null) out.push({ id: idOf(e.stream, e.seq), data: e.data });
      }
      return out;
    },
    bytes: () => held,
    evicted(eventId) {
      const seq = seqOf(eventId);
      if (Number.isNaN(seq)) return false;
      const first = entries[head]?.seq ?? nextSeq;
      return seq >= 1 && seq < first;
    },
    foreign(eventId) {
      const match = tag === '' ? null : TAGGED.exec(eventId);
      if (!match || match[1] === tag) return null;
      return match[2] === 'g' ? 'standalone' : 'request';
    },
    dispose() {
      lease.leave();
      entries = [];
      head = 0;
      held = 0;
    },
  };
}
