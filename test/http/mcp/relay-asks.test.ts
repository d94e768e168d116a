/**
 * Server→client requests of no call across replicas (ADR 039 §3), between replicas joined by
 * an in-process bus (end to end on PostgreSQL: requests-outside-calls-across-replicas.test.ts):
 * the replica that says it holds the GET stream is asked and sends it; one that no longer
 * has it says so and the request fails at once; one that does not answer fails it after
 * the bound; with no holder known, whichever holds a stream takes it, and with none the
 * request waits as it does on one replica.
 */
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { type AskNote, type AskTarget, createRelayAsks, NOT_DELIVERED } from '../../../src/http/mcp/relay-asks.js';
import { replicaTag } from '../../../src/http/mcp/session-relay.js';

const log = pino({ level: 'silent' });
const S = 'digest-of-the-session';

/** A replica's session: what was injected into it, and what it sent on its GET stream (when `stream`). */
const session = (stream: boolean) => {
  const got: JSONRPCMessage[] = [];
  const offered: JSONRPCRequest[] = [];
  const target: AskTarget = {
    inject: async (message) => void got.push(message),
    offer: (message) => stream && offered.push(message) > 0,
  };
  return { got, offered, target };
};

/**
 * Replicas on one bus, each holding the session (`stream`: with its GET stream open there;
 * `silent`: it hears nothing, as a replica gone); `sent` every note.
 */
const fleet = (replicas: { name: string; stream?: boolean; silent?: boolean }[], takeMs = 1_000) => {
  const sent: AskNote[] = [];
  const members = replicas.map(({ name, stream = false, silent = false }) => {
    const tag = replicaTag(name);
    const own = session(stream);
    const member = {
      tag,
      silent,
      ...own,
      asks: createRelayAsks({
        tag,
        held: new Map([[S, own.target]]),
        publish: async (note) => {
          sent.push(structuredClone(note));
          for (const other of members) if (other.tag !== tag && !other.silent) other.asks.heard(structuredClone(note));
        },
        log,
        takeMs,
      }),
    };
    return member;
  });
  return { sent, members };
};

/** A sampling request of no call as replica `tag`'s relay sends it (its id tagged). */
const request = (tag: string, n = 3): JSONRPCRequest => ({
  jsonrpc: '2.0',
  id: `bn.${tag}.${n}`,
  method: 'sampling/createMessage',
  params: { messages: [], maxTokens: 1 },
});

describe('createRelayAsks', () => {
  it('sends a request to the replica that said it holds the GET stream, which sends it there', async () => {
    const { sent, members } = fleet([{ name: 'a' }, { name: 'b', stream: true }, { name: 'c', stream: true }]);
    const [a, b, c] = members as [(typeof members)[0], (typeof members)[0], (typeof members)[0]];
    b.asks.streamOpened(S);
    a.asks.ask(S, request(a.tag));
    expect(b.offered.map((m) => m.id)).toEqual([`bn.${a.tag}.3`]);
    // Named, only b takes it, although c holds a stream too.
    expect(c.offered).toEqual([]);
    expect(sent.at(-1)).toEqual({ k: 'took', s: S, to: a.tag, id: `bn.${a.tag}.3`, ok: true });
    expect(a.got).toEqual([]);
  });

  it('fails the request at once when the replica named no longer has the GET stream', async () => {
    const { members } = fleet([{ name: 'a' }, { name: 'b', stream: false }]);
    const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
    b.asks.streamOpened(S);
    a.asks.ask(S, request(a.tag, 7));
    // The SDK's own id comes back, with an error that says what happened.
    expect(a.got).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32000, message: NOT_DELIVERED } }]);
    expect(NOT_DELIVERED).toMatch(/GET stream/);
  });

  it('fails the request once the bound passes when the replica named does not answer', () => {
    const { members } = fleet([{ name: 'a' }, { name: 'b', stream: true }], 50);
    const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
    b.asks.streamOpened(S);
    b.silent = true;
    vi.useFakeTimers();
    try {
      a.asks.ask(S, request(a.tag, 9));
      vi.advanceTimersByTime(49);
      expect(a.got).toEqual([]);
      vi.advanceTimersByTime(1);
    } finally {
      vi.useRealTimers();
    }
    expect(a.got).toEqual([{ jsonrpc: '2.0', id: 9, error: { code: -32000, message: NOT_DELIVERED } }]);
  });

  it('with no holder known, is taken by whichever replica holds a GET stream; with none, it waits', async () => {
    const { sent, members } = fleet([{ name: 'a' }, { name: 'b' }, { name: 'c', stream: true }], 50);
    const [a, b, c] = members as [(typeof members)[0], (typeof members)[0], (typeof members)[0]];
    a.asks.ask(S, request(a.tag, 1));
    expect(sent[0]).toMatchObject({ k: 'ask', to: null });
    expect(c.offered.map((m) => m.id)).toEqual([`bn.${a.tag}.1`]);
    // Asked of all, the replicas without a stream stay silent.
    expect(sent.filter((n) => n.k === 'took')).toEqual([{ k: 'took', s: S, to: a.tag, id: `bn.${a.tag}.1`, ok: true }]);

    const alone = fleet([{ name: 'a' }, { name: 'b' }], 50);
    const [a2, b2] = alone.members as [(typeof members)[0], (typeof members)[0]];
    vi.useFakeTimers();
    try {
      a2.asks.ask(S, request(a2.tag, 2));
      vi.advanceTimersByTime(1_000);
    } finally {
      vi.useRealTimers();
    }
    // Past the bound nothing is injected: the request waits for the agent, as on one replica.
    expect(alone.sent.map((n) => n.k)).toEqual(['ask']);
    expect(a2.got).toEqual([]);
    expect([b.got, b2.got, b2.offered]).toEqual([[], [], []]);
  });

  it('keeps a request whose GET stream was its own replica’s, and drops an ask whose id names no replica', async () => {
    const { sent, members } = fleet([
      { name: 'a', stream: true },
      { name: 'b', stream: true },
    ]);
    const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
    a.asks.streamOpened(S);
    const before = sent.length;
    a.asks.ask(S, request(a.tag));
    // Its GET stream was here: the agent resumes it here, nothing goes on the bus.
    expect(sent.length).toBe(before);
    b.asks.heard({ k: 'ask', s: S, to: null, m: { ...request(a.tag), id: 'forged' } });
    expect(b.offered).toEqual([]);
  });
});
