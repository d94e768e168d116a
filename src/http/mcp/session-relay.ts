/**
 * What of a 2025-11-25 session crosses replicas on the fleet bus (issue 22 part 3, ADR 039
 * §3): a balancer with no affinity may land a client's message on another replica than the
 * one it concerns. Four kinds travel, on one topic, named by the session id's digest:
 *
 * - **answers** to server→client requests (sampling, elicitation, roots): a request sent to
 *   the client carries an id naming this replica (`bn.<tag>.<n>`); its answer, POSTed
 *   anywhere, is handed to the replica whose call waits for it;
 * - **cancellations** (`notifications/cancelled`) of a request this replica does not serve:
 *   every replica holding the session hears it, and the one serving the request ends it;
 * - **`notifications/roots/list_changed`**: every replica holding the session tells the
 *   session's own upstream connections (`scope: "session"` servers) there;
 * - **changes of the session** (`logging/setLevel`, `resources/subscribe`, `unsubscribe`),
 *   once answered: every replica holding the session applies them, and they are recorded for
 *   replicas that rebuild it later (`SessionStates`); the answer waits until every live
 *   replica has said it applied the change, or does not hold the session (`relay-changes.ts`);
 * - **server→client requests of no call**, for the replica holding the session's GET stream
 *   (`relay-asks.ts`).
 *
 * Only cluster mode (a cluster key and PostgreSQL) makes one; without it a transport has
 * none and pays nothing.
 * @module
 */
import { createHash } from 'node:crypto';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { keptRequestEvents, type RequestEvents } from './follow-request-stream.js';
import { streamFrame } from './mcp-stream.js';
import { type AskNote, type AskTarget, createRelayAsks } from './relay-asks.js';
import { type ChangeNote, createRelayChanges } from './relay-changes.js';
import { sessionIdDigest } from './sealed-session-id.js';

/** A note on the fleet bus: `s` the session id's digest, `m` the client's message. */
export type RelayNote =
  | { readonly k: 'answer'; readonly to: string; readonly s: string; readonly m: JSONRPCMessage }
  | { readonly k: 'cancel' | 'roots'; readonly s: string; readonly m: JSONRPCMessage }
  | ChangeNote
  | AskNote;

/** The fleet bus as the relay uses it (`open-sealing.ts` makes it from the bus). */
export type RelayBus = {
  /** This replica's id, which the relay turns into the tag its ids carry. */
  readonly replica: string;
  publish(note: RelayNote): Promise<void>;
  /**
   * Resolves once listening, with the function that stops it; `self`: a note this replica
   * sent; `onReady` runs once listening and again after each reconnect.
   */
  subscribe(handler: (note: RelayNote, self: boolean) => void, onReady: () => void): Promise<() => Promise<void>>;
};

/** The changes of each session, for a replica that rebuilds it (storage's `session-states-repo.ts`). */
export type SessionStates = {
  /** The requests that replay the session's changes, oldest first. */
  read(digest: string): Promise<JSONRPCRequest[]>;
  record(digest: string, change: JSONRPCRequest): Promise<void>;
};

/**
 * The GET streams' recent events, fleet-wide (storage's `stream-events-repo.ts`): kept by the
 * replica holding a stream, replayed by another that a resumption reaches (ADR 039 §5).
 */
export type KeptEvents = {
  record(digest: string, id: string, data: string, stream?: string | null): void;
  after(digest: string, id: string): Promise<readonly { readonly id: string; readonly data: string }[] | null>;
  afterInRequest(digest: string, id: string): Promise<readonly { readonly id: string; readonly data: string }[] | null>;
};

/**
 * A transport as the relay reaches it: a message from elsewhere in the fleet, handled as if
 * POSTed here (`inject`), or sent on its GET stream (`offer`).
 */
export type RelayTarget = AskTarget;

/** One session's side of the relay: what its transport calls on what comes in and goes out. */
export type SessionRelay = {
  /** A POST's messages: those to handle here (an answer's id made local again); the others are passed on. */
  incoming(messages: JSONRPCMessage[], held: (id: RequestId) => boolean): JSONRPCMessage[];
  /**
   * A message to the client: a server→client request's id names this replica; the answer
   * to a change waits until the change is on the bus and kept, so the client's next request,
   * wherever it lands, finds it there.
   */
  outgoing(message: JSONRPCMessage): JSONRPCMessage | Promise<JSONRPCMessage>;
  /** The session's GET stream opened here: the fleet is told. */
  streamOpened(): void;
  /** A request of no call (its id made this replica's), with no GET stream open here: for the replica that has one. */
  ask(request: JSONRPCRequest): void;
  /** An event of the GET stream, logged here as `id`: kept for the fleet while this replica holds the stream. */
  logged(id: string, data: string): void;
  /** The frames of the GET stream after another replica's event `id`, as kept; '' when none are. */
  missed(id: string): Promise<string>;
  /** An event of a POST's stream served here (`stream`: its id), kept for a resumption on another replica. */
  loggedInRequest(stream: string, id: string, data: string | null): void;
  /** What another replica's POST stream kept after its event `id`; null when it is not kept (or no store). */
  requestEvents(id: string): Promise<RequestEvents | null>;
};

/** The relay of an endpoint's sessions. */
export type FleetRelay = {
  /** This replica's tag, in the ids of its server→client requests and SSE events. */
  readonly tag: string;
  forSession(sessionId: string): SessionRelay;
  /** `sessionId` is served here by `target` (once initialized). */
  hold(sessionId: string, target: RelayTarget): void;
  drop(sessionId: string): void;
  /** Replay on `target` the recorded changes of a session this replica just rebuilt. */
  replay(sessionId: string, target: RelayTarget): Promise<void>;
};

/** The requests that change a session for every replica. */
const CHANGES = new Set(['logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);
const ROOTS_CHANGED = 'notifications/roots/list_changed';
const TAGGED = /^bn\.([0-9a-f]{10})\.(\d{1,15})$/;
/** Notes one POST may send: a batch of cancellations must not become a flood of NOTIFYs. */
const NOTES_PER_POST = 16;

/** The tag of a replica in the ids it gives server→client requests: short, and no host name. */
export const replicaTag = (replica: string): string => createHash('sha256').update(replica).digest('hex').slice(0, 10);

/** Start following the fleet bus for an endpoint's sessions. */
export function createFleetRelay({
  bus,
  states = null,
  events = null,
  peers = null,
  applyWaitMs,
  log,
}: {
  bus: RelayBus;
  states?: SessionStates | null;
  /** Absent: a resumption on another replica gets a fresh GET stream, nothing replayed. */
  events?: KeptEvents | null;
  /** The other live replicas' ids, which a session change's answer waits for (null: none). */
  peers?: (() => Promise<readonly string[]>) | null;
  /** How long it waits at most (default `APPLY_WAIT_MS`). */
  applyWaitMs?: number;
  log: Pick<Logger, 'warn' | 'debug'>;
}): FleetRelay {
  const tag = replicaTag(bus.replica);
  const held = new Map<string, RelayTarget>();
  const publish = (note: RelayNote): Promise<void> =>
    bus.publish(note).catch((error: unknown) => log.warn({ err: error, kind: note.k }, 'fleet relay: not sent'));
  /** Apply the kept changes of the session `digest` on `target`, one after the other. */
  const applyKept = async (digest: string, target: RelayTarget) => {
    for (const change of (await states?.read(digest)) ?? []) await target.inject(change);
  };
  const asks = createRelayAsks({ tag, held, publish, log });
  const changes = createRelayChanges({ tag, replica: bus.replica, publish, peers, log, waitMs: applyWaitMs });
  let listens = 0;
  const following = bus.subscribe(
    (note, self) => {
      if (self || (note.k === 'answer' && note.to !== tag)) return;
      if (note.k === 'stream' || note.k === 'ask' || note.k === 'took') {
        asks.heard(note);
        return;
      }
      if (note.k === 'applied') {
        changes.heardApplied(note);
        return;
      }
      const target = held.get(note.s);
      // A change is acknowledged held or not: its answer waits for every replica.
      if (note.k === 'state') {
        changes.heardChange(note, target && fits(note) ? (m) => target.inject(m) : null);
        return;
      }
      if (!target) return;
      // Only what a note of its kind may carry is handed to a session's server.
      const message = note.k === 'answer' ? localAnswer(note.m, tag) : fits(note) ? note.m : null;
      if (message) void target.inject(message);
      else log.debug({ kind: note.k }, 'fleet relay: a note that carries what its kind may not; dropped');
    },
    () => {
      // Listening again after a reconnect: changes sent meanwhile were missed; the kept ones
      // are applied again (a level, a subscription; an unsubscribe missed is not undone).
      if (++listens === 1) return;
      for (const [digest, target] of held)
        applyKept(digest, target).catch((error: unknown) => log.warn({ err: error }, 'fleet relay: not caught up'));
    },
  );
  following.catch((error: unknown) => log.warn({ err: error }, 'fleet relay: not listening'));

  return {
    tag,
    forSession(sessionId) {
      const s = sessionIdDigest(sessionId);
      // Changes asked of this session and not yet answered, by request id.
      const asked = new Map<RequestId, JSONRPCRequest>();
      /** Handle one message of a POST; `send` passes a note on, within the POST's allowance. */
      const one = (
        message: JSONRPCMessage,
        holds: (id: RequestId) => boolean,
        send: (note: RelayNote) => void,
      ): JSONRPCMessage | null => {
        if ('method' in message) {
          if ('id' in message && CHANGES.has(message.method)) asked.set(message.id, message as JSONRPCRequest);
          else if (message.method === 'notifications/cancelled') {
            const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
            if (id !== undefined && !holds(id)) send({ k: 'cancel', s, m: message });
          } else if (message.method === ROOTS_CHANGED) send({ k: 'roots', s, m: message });
          return message;
        }
        const id = 'id' in message ? message.id : undefined;
        const match = typeof id === 'string' ? TAGGED.exec(id) : null;
        if (!match) return message;
        if (match[1] === tag) return { ...message, id: Number(match[2]) } as JSONRPCMessage;
        send({ k: 'answer', to: match[1] as string, s, m: message });
        return null;
      };
      return {
        incoming(messages, holds) {
          const mine: JSONRPCMessage[] = [];
          let notes = 0;
          const send = (note: RelayNote) => {
            if (++notes <= NOTES_PER_POST) void publish(note);
            else log.debug({ kind: note.k }, 'fleet relay: past the notes one POST may send; dropped');
          };
          for (const message of messages) {
            const kept = one(message, holds, send);
            if (kept) mine.push(kept);
          }
          return mine;
        },
        outgoing(message) {
          if ('method' in message) {
            if ('id' in message) return { ...message, id: `bn.${tag}.${message.id}` };
            if (message.method !== 'notifications/cancelled') return message;
            const params = message.params as { requestId?: RequestId } | undefined;
            return params?.requestId === undefined
              ? message
              : { ...message, params: { ...params, requestId: `bn.${tag}.${params.requestId}` } };
          }
          const id = 'id' in message ? message.id : undefined;
          const change = id === undefined ? undefined : asked.get(id);
          if (change) {
            asked.delete(id as RequestId);
            if ('result' in message) {
              const kept = states?.record(s, change).catch((error: unknown) => {
                log.warn({ err: error }, 'session change not kept');
              });
              return Promise.all([changes.announce(s, change), kept]).then(() => message);
            }
          }
          return message;
        },
        streamOpened: () => asks.streamOpened(s),
        ask: (request) => asks.ask(s, request),
        logged(id, data) {
          if (events && asks.holds(s)) events.record(s, id, data);
        },
        async missed(id) {
          const kept = await events?.after(s, id).catch((error: unknown) => {
            log.warn({ err: error }, 'fleet relay: kept stream events not read; the GET stream starts afresh');
            return null;
          });
          return (kept ?? []).map((e) => streamFrame(e.id, e.data)).join('');
        },
        loggedInRequest: (stream, id, data) => events?.record(s, id, data ?? '', stream),
        requestEvents: (id) => keptRequestEvents(events, s, id, log),
      };
    },
    hold: (sessionId, target) => held.set(sessionIdDigest(sessionId), target),
    drop(sessionId) {
      const digest = sessionIdDigest(sessionId);
      held.delete(digest);
      asks.forget(digest);
    },
    // Done before the request that rebuilt the session is served.
    replay: (sessionId, target) => applyKept(sessionIdDigest(sessionId), target),
  };
}

/** Whether a cancellation or a change carries a message of its kind. */
function fits(note: Extract<RelayNote, { k: 'cancel' | 'roots' | 'state' }>): boolean {
  const method = 'method' in note.m ? note.m.method : null;
  if (note.k === 'cancel') return method === 'notifications/cancelled';
  if (note.k === 'roots') return method === ROOTS_CHANGED;
  return method !== null && CHANGES.has(method);
}

/** An answer to one of this replica's requests, its id made the SDK's again; null when it is not one. */
function localAnswer(message: JSONRPCMessage, tag: string): JSONRPCMessage | null {
  if ('method' in message) return null;
  const id = 'id' in message ? message.id : undefined;
  const match = typeof id === 'string' ? TAGGED.exec(id) : null;
  return match && match[1] === tag ? ({ ...message, id: Number(match[2]) } as JSONRPCMessage) : null;
}
