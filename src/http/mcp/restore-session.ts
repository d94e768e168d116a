/**
 * A 2025-11-25 session rebuilt on a replica that did not open it (issue 22 part 3, ADR 039):
 * its sealed id opened with the cluster's key, checked (the endpoint, the token that opened
 * it, its age, not ended by a `DELETE` anywhere), and its session opened here as if its
 * `initialize` had just been answered. Two requests of one session arriving together build
 * it once. A `DELETE` of a session this replica does not hold ends it without building it.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StoreUnavailableError } from '../../errors.js';
import type { Caller } from '../../guard/caller.js';
import { type RpcRefusal, writeRefusal } from '../io/index.js';
import { type HttpSession, ownerOf } from './open-http-session.js';
import { type SealedSession, type SessionSeal, sessionIdDigest } from './sealed-session-id.js';
import type { KeptEvents, RelayBus, SessionStates } from './session-relay.js';

/** The sealed ids a `DELETE` ended, by digest, in the database every replica reads (storage's `closed-sessions-repo.ts`). */
export type ClosedSessions = {
  isClosed(digest: string): Promise<boolean>;
  close(digest: string): Promise<void>;
};

/** Word of a `DELETE` to every replica at once (the fleet bus), by the id's digest. */
export type ClosedNotices = {
  publish(digest: string): void;
  /** Resolves once listening, with the function that stops it. */
  subscribe(handler: (digest: string) => void): Promise<() => Promise<void>>;
};

/** What sealed sessions need: the seal, the closed list every replica reads, and an id's lifetime. */
export type Sealing = {
  readonly seal: SessionSeal;
  readonly closed: ClosedSessions;
  /** Absent: a held session learns of a `DELETE` elsewhere from the closed list, within a second. */
  readonly notices?: ClosedNotices | null;
  /** A sealed id older than this is refused (the client opens a new session). */
  readonly maxAgeMs: number;
  /** Cluster mode: what crosses replicas on the fleet bus, and sessions' changes kept for rebuilds (`session-relay.ts`). */
  readonly relay?: {
    readonly bus: RelayBus;
    readonly states: SessionStates;
    /** The GET streams' events kept for a resumption on another replica (PostgreSQL). */
    readonly events?: KeptEvents | null;
    /** The other live replicas, which a session change's answer waits for (`relay-changes.ts`). */
    readonly peers?: (() => Promise<readonly string[]>) | null;
  } | null;
};

/** Opens the session of a sealed id here: the session, a refusal (over a cap, stopping), or null (no such endpoint). */
type OpenHere = (
  id: string,
  path: string,
  caller: Caller,
  initialize: SealedSession['initialize'],
) => Promise<HttpSession | (RpcRefusal & { data?: unknown }) | null>;

/** How often a held sealed session is looked up in the closed list, at most. */
const CHECK_EVERY_MS = 1_000;

/** The `initialize` params a sealed id keeps. */
export function sealedInitialize(params: {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string };
}): SealedSession['initialize'] {
  const { protocolVersion, capabilities, clientInfo } = params;
  return { protocolVersion, capabilities, clientInfo };
}

/** Whether the closed list has `digest`; a database that fails to say is a 503 (retry), not our bug. */
const isClosed = (closed: ClosedSessions, digest: string): Promise<boolean> =>
  closed.isClosed(digest).catch((error: unknown) => {
    throw new StoreUnavailableError('whether the session was ended', { cause: error });
  });

/** The restorer of an endpoint; `take` resolves to the session, `'answered'` (the response is written), or null (no such session). */
export function createSessionRestorer({ sealing, open }: { sealing: Sealing | null; open: OpenHere }) {
  const building = new Map<string, Promise<HttpSession | (RpcRefusal & { data?: unknown }) | null>>();
  /** When each held sealed session was last looked up in the closed list. */
  const checked = new WeakMap<HttpSession, number>();
  return {
    /**
     * Whether a sealed session this replica holds was ended by a `DELETE` on another: looked
     * up at most once a second a session (the fleet bus tells at once when it is up; this is
     * what holds when a notice was missed).
     */
    async endedElsewhere(session: HttpSession, id: string): Promise<boolean> {
      if (!sealing || !id.startsWith('v1.')) return false;
      const now = Date.now();
      if (now - (checked.get(session) ?? 0) < CHECK_EVERY_MS) return false;
      checked.set(session, now);
      return isClosed(sealing.closed, sessionIdDigest(id));
    },
    async take(
      req: IncomingMessage,
      res: ServerResponse,
      id: string,
      path: string,
      caller: Caller,
    ): Promise<HttpSession | 'answered' | null> {
      if (!sealing) return null;
      const state = sealing.seal.open(id);
      if (!state || state.path !== path || state.owner !== ownerOf(caller)) return null;
      if (Date.now() - state.openedAt > sealing.maxAgeMs) return null;
      const digest = sessionIdDigest(id);
      if (await isClosed(sealing.closed, digest)) return null;
      if (req.method === 'DELETE') {
        await sealing.closed.close(digest);
        // The replicas that hold it end their copies at once, as for a DELETE on a holder.
        sealing.notices?.publish(digest);
        res.writeHead(200, { 'mcp-session-id': id }).end();
        return 'answered';
      }
      let pending = building.get(id);
      if (!pending) {
        pending = open(id, path, caller, state.initialize).finally(() => building.delete(id));
        building.set(id, pending);
      }
      const opened = await pending;
      if (opened && 'status' in opened) {
        writeRefusal(res, opened, opened.data ? { data: opened.data } : {});
        return 'answered';
      }
      // Looked up in the closed list just now.
      if (opened) checked.set(opened, Date.now());
      return opened;
    },
  };
}
