/**
 * The fleet relay of the MCP endpoints (issue 22, ADR 039 §3) between two replicas joined by
 * an in-process bus with the relay's port (the PostgreSQL one is tested end to end in
 * session-relay-across-replicas.test.ts): ids of server→client requests name their replica
 * and come back as the SDK's numbers; another replica's answer, a cancellation of a request
 * served elsewhere and an answered change reach the replica holding the session, the change's
 * answer waiting until every live replica applied it (or a bound); a forged
 * or unknown tag reaches nobody; a batch cannot flood the bus; after a reconnect a replica
 * applies the kept changes again.
 */
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { sessionIdDigest } from '../../../src/http/mcp/sealed-session-id.js';
import {
  createFleetRelay,
  type RelayBus,
  type RelayNote,
  replicaTag,
  type SessionStates,
} from '../../../src/http/mcp/session-relay.js';

/** Replicas on one in-process bus: every note to every subscriber, `self` for the sender's own. */
function joinedBus() {
  const subscribers: { replica: string; handler: (note: RelayNote, self: boolean) => void; ready: () => void }[] = [];
  const sent: RelayNote[] = [];
  return {
    sent,
    /** A reconnect of every subscriber's listening connection. */
    relisten: () => {
      for (const s of subscribers) s.ready();
    },
    busOf: (replica: string): RelayBus => ({
      replica,
      async publish(note) {
        sent.push(structuredClone(note));
        for (const s of subscribers) s.handler(structuredClone(note), s.replica === replica);
      },
      async subscribe(handler, ready) {
        subscribers.push({ replica, handler, ready });
        ready();
        return async () => undefined;
      },
    }),
  };
}

/** A session's transport as the relay reaches it: what was handed to it; `offered` what it sent on its GET stream, when `stream` is open. */
const target = ({ stream = false }: { stream?: boolean } = {}) => {
  const got: JSONRPCMessage[] = [];
  const offered: JSONRPCRequest[] = [];
  return {
    got,
    offered,
    inject: async (message: JSONRPCMessage) => void got.push(message),
    offer: (message: JSONRPCRequest) => stream && offered.push(message) > 0,
  };
};

/** Kept changes in memory, as session_state keeps them. */
const keptStates = (): SessionStates & { rows: Map<string, JSONRPCRequest[]> } => {
  const rows = new Map<string, JSONRPCRequest[]>();
  return {
    rows,
    read: async (digest) => rows.get(digest) ?? [],
    record: async (digest, change) => void rows.set(digest, [...(rows.get(digest) ?? []), change]),
  };
};

const log = pino({ level: 'silent' });
const SESSION = 'v1.session-of-the-test';

/** Replica A holding the session (`onA`: what it was handed) and B's side of it, on one bus. */
const aHoldsTheSession = () => {
  const joined = joinedBus();
  const onA = target();
  createFleetRelay({ bus: joined.busOf('replica-a'), log }).hold(SESSION, onA);
  const b = createFleetRelay({ bus: joined.busOf('replica-b'), log }).forSession(SESSION);
  return { joined, onA, b };
};

describe('createFleetRelay', () => {
  it('names its replica in server→client request ids and hands another replica’s answers to it', async () => {
    const joined = joinedBus();
    const a = createFleetRelay({ bus: joined.busOf('replica-a'), log });
    const b = createFleetRelay({ bus: joined.busOf('replica-b'), log });
    const onA = target();
    a.hold(SESSION, onA);
    b.hold(SESSION, target());
    const sessionA = a.forSession(SESSION);
    const sessionB = b.forSession(SESSION);
    const asked = sessionA.outgoing({ jsonrpc: '2.0', id: 4, method: 'sampling/createMessage', params: {} });
    expect(asked).toEqual({
      jsonrpc: '2.0',
      id: `bn.${replicaTag('replica-a')}.4`,
      method: 'sampling/createMessage',
      params: {},
    });
    const answer = { jsonrpc: '2.0' as const, id: (asked as { id: string }).id, result: { model: 'm' } };
    // On A itself: its own number again, handled there, nothing on the bus.
    expect(sessionA.incoming([answer], () => false)).toEqual([{ ...answer, id: 4 }]);
    expect(joined.sent).toEqual([]);
    // On B: passed on, not handled there; A gets it with its number.
    expect(sessionB.incoming([answer], () => false)).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(onA.got).toEqual([{ ...answer, id: 4 }]);
    expect(joined.sent).toEqual([{ k: 'answer', to: replicaTag('replica-a'), s: sessionIdDigest(SESSION), m: answer }]);
  });

  it('rewrites the id of a cancellation it sends, and leaves answers of its own alone', () => {
    const relay = createFleetRelay({ bus: joinedBus().busOf('replica-a'), log }).forSession(SESSION);
    const tag = replicaTag('replica-a');
    expect(relay.outgoing({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4 } })).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: `bn.${tag}.4` },
    });
    const progress = { jsonrpc: '2.0' as const, method: 'notifications/progress', params: { progressToken: 1 } };
    expect(relay.outgoing(progress)).toBe(progress);
    const result = { jsonrpc: '2.0' as const, id: 9, result: {} };
    expect(relay.outgoing(result)).toBe(result);
  });

  it('sends nobody an answer with a forged, unknown or malformed id', async () => {
    const { joined, onA, b } = aHoldsTheSession();
    const answers = ['bn.0000000000.4', 'bn.zz.4', `bn.${replicaTag('replica-a')}.x`, 7, 'plain'].map((id) => ({
      jsonrpc: '2.0' as const,
      id,
      result: {},
    }));
    // Not this replica's: what is not tagged stays here (the SDK says it knows no such id).
    expect(b.incoming(answers, () => false)).toEqual(answers.slice(1));
    await new Promise((r) => setImmediate(r));
    // The unknown tag went on the bus, and no replica took it.
    expect(joined.sent.map((n) => n.k)).toEqual(['answer']);
    expect(onA.got).toEqual([]);
  });

  it('hands a session’s server nothing a note of its kind may not carry', async () => {
    const { joined, onA } = aHoldsTheSession();
    const other = joined.busOf('replica-b');
    const s = sessionIdDigest(SESSION);
    const tagged = `bn.${replicaTag('replica-a')}.1`;
    const call = { jsonrpc: '2.0' as const, id: tagged, method: 'tools/call', params: { name: 'x' } };
    await other.publish({ k: 'state', s, m: { ...call, id: 1 } });
    await other.publish({ k: 'cancel', s, m: { jsonrpc: '2.0', method: 'logging/setLevel', params: {} } });
    await other.publish({ k: 'answer', to: replicaTag('replica-a'), s, m: call });
    await other.publish({ k: 'state', s: 'another-session', m: { ...call, id: 1, method: 'logging/setLevel' } });
    await new Promise((r) => setImmediate(r));
    expect(onA.got).toEqual([]);
  });

  it('passes on a cancellation of a request served elsewhere, and only that', async () => {
    const { joined, onA, b } = aHoldsTheSession();
    const cancel = (requestId: number) => ({
      jsonrpc: '2.0' as const,
      method: 'notifications/cancelled',
      params: { requestId, reason: 'no' },
    });
    // Served on B: B's own to handle, nothing on the bus.
    expect(b.incoming([cancel(1)], (id) => id === 1)).toEqual([cancel(1)]);
    expect(joined.sent).toEqual([]);
    // Not served on B: still handed to B's server (it knows no such request), and to A.
    expect(b.incoming([cancel(2)], () => false)).toEqual([cancel(2)]);
    await new Promise((r) => setImmediate(r));
    expect(onA.got).toEqual([cancel(2)]);
  });

  it('tells every replica holding the session that the agent’s roots changed', async () => {
    const { joined, onA, b } = aHoldsTheSession();
    const changed = { jsonrpc: '2.0' as const, method: 'notifications/roots/list_changed' };
    // B's own session upstreams hear it from B's server; A's from the bus.
    expect(b.incoming([changed], () => false)).toEqual([changed]);
    await new Promise((r) => setImmediate(r));
    expect(onA.got).toEqual([changed]);
    // Carried by a note of another kind, it is dropped.
    await joined.busOf('replica-b').publish({ k: 'cancel', s: sessionIdDigest(SESSION), m: changed });
    await new Promise((r) => setImmediate(r));
    expect(onA.got).toEqual([changed]);
  });

  it('sends at most 16 notes for one POST', async () => {
    const joined = joinedBus();
    const b = createFleetRelay({ bus: joined.busOf('replica-b'), log }).forSession(SESSION);
    const batch = Array.from({ length: 40 }, (_, i) => ({
      jsonrpc: '2.0' as const,
      method: 'notifications/cancelled',
      params: { requestId: i },
    }));
    expect(b.incoming(batch, () => false)).toHaveLength(40);
    expect(joined.sent).toHaveLength(16);
    // The next POST has its own allowance.
    b.incoming(batch.slice(0, 1), () => false);
    expect(joined.sent).toHaveLength(17);
  });

  it('publishes and keeps a change once answered with a result, then answers; a refused one is not kept', async () => {
    const joined = joinedBus();
    const states = keptStates();
    const a = createFleetRelay({ bus: joined.busOf('replica-a'), states, log }).forSession(SESSION);
    const b = createFleetRelay({ bus: joined.busOf('replica-b'), states, log });
    const onB = target();
    b.hold(SESSION, onB);
    const setLevel = { jsonrpc: '2.0' as const, id: 3, method: 'logging/setLevel', params: { level: 'error' } };
    const subscribe = { jsonrpc: '2.0' as const, id: 4, method: 'resources/subscribe', params: { uri: 'x://nope' } };
    a.incoming([setLevel, subscribe], () => false);
    const answered = a.outgoing({ jsonrpc: '2.0', id: 3, result: {} });
    // The answer waits for the bus and the row.
    expect(answered).toBeInstanceOf(Promise);
    expect(await answered).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    expect(onB.got).toEqual([setLevel]);
    expect(states.rows.get(sessionIdDigest(SESSION))).toEqual([setLevel]);
    // Refused by the upstream: neither sent nor kept.
    const refused = { jsonrpc: '2.0' as const, id: 4, error: { code: -32602, message: 'no such resource' } };
    expect(a.outgoing(refused)).toBe(refused);
    expect(onB.got).toEqual([setLevel]);
    expect(states.rows.get(sessionIdDigest(SESSION))).toEqual([setLevel]);
  });

  it('answers a change once every live replica applied it, or said it does not hold the session', async () => {
    const joined = joinedBus();
    const peers = async () => ['replica-b', 'replica-c'];
    const a = createFleetRelay({ bus: joined.busOf('replica-a'), peers, log }).forSession(SESSION);
    const b = createFleetRelay({ bus: joined.busOf('replica-b'), log });
    createFleetRelay({ bus: joined.busOf('replica-c'), log });
    // B holds the session; its server takes its time to apply the change.
    const got: JSONRPCMessage[] = [];
    let release: () => void = () => undefined;
    b.hold(SESSION, {
      inject: (message) => {
        got.push(message);
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      offer: () => false,
    });
    const setLevel = { jsonrpc: '2.0' as const, id: 3, method: 'logging/setLevel', params: { level: 'error' } };
    a.incoming([setLevel], () => false);
    let answered = false;
    const answer = Promise.resolve(a.outgoing({ jsonrpc: '2.0', id: 3, result: {} })).then((m) => {
      answered = true;
      return m;
    });
    await new Promise((r) => setTimeout(r, 20));
    // B has it, but has not applied it yet; C does not hold the session and said so at once.
    expect(got).toEqual([setLevel]);
    expect(answered).toBe(false);
    expect(joined.sent.filter((n) => n.k === 'applied').map((n) => (n as { by: string }).by)).toEqual(['replica-c']);
    release();
    expect(await answer).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    expect(joined.sent.filter((n) => n.k === 'applied').map((n) => (n as { by: string }).by)).toEqual([
      'replica-c',
      'replica-b',
    ]);
  });

  it('answers a change after the wait when a replica does not say it applied it, naming that replica', async () => {
    const joined = joinedBus();
    const warned: unknown[] = [];
    const peers = async () => ['replica-b', 'replica-gone'];
    const a = createFleetRelay({
      bus: joined.busOf('replica-a'),
      peers,
      applyWaitMs: 30,
      log: { warn: (fields: unknown) => void warned.push(fields), debug: () => undefined },
    }).forSession(SESSION);
    createFleetRelay({ bus: joined.busOf('replica-b'), log });
    const setLevel = { jsonrpc: '2.0' as const, id: 3, method: 'logging/setLevel', params: { level: 'error' } };
    a.incoming([setLevel], () => false);
    const started = performance.now();
    expect(await a.outgoing({ jsonrpc: '2.0', id: 3, result: {} })).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(warned).toEqual([expect.objectContaining({ method: 'logging/setLevel', replicas: ['replica-gone'] })]);
  });

  it('applies the kept changes to a rebuilt session, and to every held one after a reconnect', async () => {
    const joined = joinedBus();
    const states = keptStates();
    const digest = sessionIdDigest(SESSION);
    const setLevel = { jsonrpc: '2.0' as const, id: 1, method: 'logging/setLevel', params: { level: 'error' } };
    states.rows.set(digest, [setLevel]);
    const relay = createFleetRelay({ bus: joined.busOf('replica-a'), states, log });
    const rebuilt = target();
    await relay.replay(SESSION, rebuilt);
    expect(rebuilt.got).toEqual([setLevel]);
    relay.hold(SESSION, rebuilt);
    joined.relisten();
    await new Promise((r) => setImmediate(r));
    expect(rebuilt.got).toEqual([setLevel, setLevel]);
    // Dropped: no longer caught up.
    relay.drop(SESSION);
    joined.relisten();
    await new Promise((r) => setImmediate(r));
    expect(rebuilt.got).toHaveLength(2);
  });
});
