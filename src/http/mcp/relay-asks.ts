/**
 * Server→client requests of no call, across replicas (issue 22 part 3, ADR 039 §3): a
 * `scope: "session"` upstream's sampling or elicitation asked while no call of the agent
 * runs, an upstream's `roots/list` after the roots changed. Such a request goes on the
 * session's GET stream, which the balancer may have put on another replica than the one
 * whose connection asks. So:
 *
 * - a replica that opens a session's GET stream says so (`stream`, one note a GET stream,
 *   none a call); every replica holding the session remembers which replica has it;
 * - a replica with such a request and no GET stream of that session open sends it (`ask`)
 *   to the replica it remembers (or, remembering none, to whichever holds one); that one
 *   sends it on its GET stream and says whether it did (`took`);
 * - the one named does not have it any more (the agent's stream ended, the replica
 *   restarted) or does not answer within {@link TAKE_MS}: the request fails at once with
 *   {@link NOT_DELIVERED}, rather than wait for the upstream's timeout. Asked of nobody in
 *   particular and taken by none: it waits, as it does on one replica with no GET stream.
 *
 * The agent's answer comes back as any answer does: its id names the asking replica.
 * @module
 */
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';

/** The notes of this part of the relay; `s` the session id's digest. */
export type AskNote =
  /** The replica tagged `at` holds the session's GET stream now. */
  | { readonly k: 'stream'; readonly s: string; readonly at: string }
  /** A request of no call (its id `bn.<asker>.<n>`), for the replica tagged `to`; null: whichever holds a GET stream. */
  | { readonly k: 'ask'; readonly s: string; readonly to: string | null; readonly m: JSONRPCRequest }
  /** To the asker `to`: the request `id` went out on a GET stream (`ok`), or not. */
  | { readonly k: 'took'; readonly s: string; readonly to: string; readonly id: string; readonly ok: boolean };

/** A session as this part reaches it. */
export type AskTarget = {
  inject(message: JSONRPCMessage): Promise<void>;
  /** Send `message` on the session's GET stream here, if one is open; whether it was. */
  offer(message: JSONRPCRequest): boolean;
};

/** What the relay hands this part. */
export type RelayAsks = {
  /** A note of this part from another replica. */
  heard(note: AskNote): void;
  /** The GET stream of session `digest` opened here. */
  streamOpened(digest: string): void;
  /** A request of no call for session `digest`, which has no GET stream open here (its id tagged). */
  ask(digest: string, request: JSONRPCRequest): void;
  /** This replica no longer holds session `digest`. */
  forget(digest: string): void;
  /** Whether this replica holds session `digest`'s GET stream, as last said (open now or not). */
  holds(digest: string): boolean;
};

/** How long a replica named may take to say it sent the request: a live one answers in milliseconds. */
export const TAKE_MS = 1_000;
/** What the upstream is answered when the replica holding the GET stream did not send the request. */
export const NOT_DELIVERED =
  'not delivered: the agent’s GET stream was on another replica, which no longer has it; the agent may open it again, then ask again';
const TAGGED = /^bn\.([0-9a-f]{10})\.(\d{1,15})$/;

/** This part of the relay of replica `tag`; `held`: the sessions held here, by digest. */
export function createRelayAsks({
  tag,
  held,
  publish,
  log,
  takeMs = TAKE_MS,
}: {
  tag: string;
  held: ReadonlyMap<string, AskTarget>;
  publish(note: AskNote): Promise<void>;
  log: Pick<Logger, 'debug'>;
  takeMs?: number;
}): RelayAsks {
  /** By session digest: the tag of the replica last said to hold its GET stream. */
  const holders = new Map<string, string>();
  /** Requests asked of the fleet and not yet taken, by their tagged id. */
  const waiting = new Map<
    string,
    { readonly digest: string; readonly named: boolean; readonly timer: NodeJS.Timeout }
  >();

  const settle = (id: string, ok: boolean): void => {
    const wait = waiting.get(id);
    if (!wait) return;
    waiting.delete(id);
    clearTimeout(wait.timer);
    // Taken; or asked of nobody in particular and taken by none: it waits, as on one replica.
    if (ok || !wait.named) return;
    const local = Number(TAGGED.exec(id)?.[2]);
    void held.get(wait.digest)?.inject({ jsonrpc: '2.0', id: local, error: { code: -32000, message: NOT_DELIVERED } });
  };

  return {
    heard(note) {
      if (note.k === 'stream') {
        if (held.has(note.s)) holders.set(note.s, note.at);
      } else if (note.k === 'took') {
        if (note.to === tag) settle(note.id, note.ok === true);
      } else if (note.to === null || note.to === tag) {
        const id = 'method' in note.m && typeof note.m.id === 'string' ? note.m.id : '';
        const asker = TAGGED.exec(id)?.[1];
        if (!asker) {
          log.debug('fleet relay: an ask without a request of a replica; dropped');
          return;
        }
        const ok = held.get(note.s)?.offer(note.m) ?? false;
        // Named, it answers either way, so the asker need not wait; asked of all, only the taker does.
        if (ok || note.to === tag) void publish({ k: 'took', s: note.s, to: asker, id, ok });
      }
    },
    streamOpened(digest) {
      holders.set(digest, tag);
      void publish({ k: 'stream', s: digest, at: tag });
    },
    ask(digest, request) {
      const holder = holders.get(digest);
      // Its GET stream was here: the agent resumes it here (as on one replica).
      if (holder === tag || typeof request.id !== 'string') return;
      const id = request.id;
      const timer = setTimeout(() => settle(id, false), takeMs);
      timer.unref();
      waiting.set(id, { digest, named: holder !== undefined, timer });
      void publish({ k: 'ask', s: digest, to: holder ?? null, m: request });
    },
    forget: (digest) => holders.delete(digest),
    holds: (digest) => holders.get(digest) === tag,
  };
}
