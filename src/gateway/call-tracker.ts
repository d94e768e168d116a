/**
 * Which agent call caused an upstream's request (SPEC G6). Each relayed call runs inside
 * an AsyncLocalStorage context: over Streamable HTTP the upstream's request arrives on
 * that call's own response stream, whose reader inherits the context, so attribution is
 * exact whatever the concurrency. Over stdio and SSE there is one stream for everything:
 * the request belongs to a call only when every call in flight to that upstream comes
 * from one session; otherwise it is ambiguous and `scope: "session"` is the remedy.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { GatewaySession } from './gateway-session.js';
import type { ServerExtra } from './server-extra.js';

/** One agent call being relayed to an upstream connection (`key`: server, or server#session). */
export type CallContext = { readonly key: string; readonly session: GatewaySession; readonly extra: ServerExtra };

/** The answer to "whose request is this?". */
export type Attribution =
  | { kind: 'call'; call: CallContext }
  | { kind: 'ambiguous'; sessions: number }
  | { kind: 'none' };

/** Tracks relayed calls per upstream connection. */
export type CallTracker = ReturnType<typeof createCallTracker>;

/** Create a tracker (one per gateway). */
export function createCallTracker() {
  const storage = new AsyncLocalStorage<CallContext>();
  const inflight = new Map<string, Set<CallContext>>();
  return {
    /** Run `work` as `call`: requests the upstream makes meanwhile are attributed to it. */
    async run<T>(call: CallContext, work: () => Promise<T>): Promise<T> {
      let calls = inflight.get(call.key);
      if (!calls) {
        calls = new Set();
        inflight.set(call.key, calls);
      }
      calls.add(call);
      try {
        return await storage.run(call, work);
      } finally {
        calls.delete(call);
        if (calls.size === 0) inflight.delete(call.key);
      }
    },
    /** Run `work` outside any call: upstreams opened here must not inherit a call's context. */
    outside<T>(work: () => T): T {
      return storage.exit(work);
    },
    /** Attribute a request or notification that upstream connection `key` sent now. */
    attribute(key: string): Attribution {
      const current = storage.getStore();
      if (current?.key === key) return { kind: 'call', call: current };
      const calls = [...(inflight.get(key) ?? [])];
      if (calls.length === 0) return { kind: 'none' };
      const sessions = new Set(calls.map((c) => c.session.id)).size;
      return sessions === 1 ? { kind: 'call', call: calls.at(-1) as CallContext } : { kind: 'ambiguous', sessions };
    },
  };
}
