/**
 * Which agent call caused an upstream's request (SPEC G6). A call to an upstream over
 * HTTP runs inside an AsyncLocalStorage context: over Streamable HTTP the upstream's
 * request arrives on that call's own response stream, whose reader inherits the context,
 * so attribution is exact whatever the concurrency. Over stdio and SSE one stream carries
 * everything, and a context would say nothing: the request belongs to a call only when
 * every call in flight to that upstream comes from one session; otherwise it is ambiguous
 * and `scope: "session"` is the remedy. Calls over stdio and SSE run outside any context,
 * so a service without HTTP upstreams never turns Node's promise hooks on (ADR 015 §10).
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { UpstreamSession } from '../../upstream/types.js';
import type { SessionContext } from '../session/index.js';

/** The key of a connection: the server's shared one, or the one `session` owns (`scope: "session"`). */
export function connectionKey(server: string, session: string | null): string {
  return session === null ? server : `${server}#${session}`;
}

/**
 * One agent call being relayed to an upstream connection (`key`: see {@link connectionKey})
 * reached over `transport`.
 */
export type TrackedCall = {
  readonly key: string;
  readonly context: SessionContext;
  readonly transport: UpstreamSession['transport'];
};

/** The answer to "whose request is this?". */
export type Attribution =
  | { kind: 'call'; call: TrackedCall }
  | { kind: 'ambiguous'; sessions: number }
  | { kind: 'none' };

/** Tracks relayed calls per upstream connection. */
export type CallTracker = {
  /** Run `work` as `call`: requests the upstream makes meanwhile are attributed to it. */
  run<T>(call: TrackedCall, work: () => Promise<T>): Promise<T>;
  /** Run `work` outside any call: upstreams opened here must not inherit a call's context. */
  outside<T>(work: () => T): T;
  /** Attribute a request or notification that upstream connection `key` sent now. */
  attribute(key: string): Attribution;
};

/** Create a tracker: `main.ts` makes one and hands it to the gateway and the upstream peer. */
export function createCallTracker(): CallTracker {
  const storage = new AsyncLocalStorage<TrackedCall>();
  const inflight = new Map<string, Set<TrackedCall>>();
  return {
    async run(call, work) {
      let calls = inflight.get(call.key);
      if (!calls) {
        calls = new Set();
        inflight.set(call.key, calls);
      }
      calls.add(call);
      try {
        // Only over HTTP can the upstream's requests come on a stream of the call's own.
        return await (call.transport === 'http' ? storage.run(call, work) : work());
      } finally {
        calls.delete(call);
        if (calls.size === 0) inflight.delete(call.key);
      }
    },
    outside(work) {
      return storage.exit(work);
    },
    attribute(key) {
      const current = storage.getStore();
      if (current?.key === key) return { kind: 'call', call: current };
      const calls = [...(inflight.get(key) ?? [])];
      if (calls.length === 0) return { kind: 'none' };
      const sessions = new Set(calls.map((c) => c.context.session.id)).size;
      return sessions === 1 ? { kind: 'call', call: calls.at(-1) as TrackedCall } : { kind: 'ambiguous', sessions };
    },
  };
}
