/**
 * What of a 2025-11-25 session crosses replicas on the fleet bus (issue 22 part 3, ADR 039
 * §3): two services on one PostgreSQL database behind the round-robin balancer of the tests
 * (no affinity: consecutive requests alternate replicas), an SDK v1 client with sampling and
 * elicitation handlers. An upstream's sampling and elicitation are answered through the
 * replica that does not serve the call; a cancellation reaches the call through the other
 * replica; progress arrives; `logging/setLevel` and `resources/subscribe` hold on every
 * replica, also on one restarted after them; a `Last-Event-ID` of another replica's stream
 * gets a fresh standalone stream or a 503 to retry elsewhere.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLY_WAIT_MS } from '../../../src/http/mcp/relay-changes.js';
import { subscribeAndBump } from '../../support/asking-upstream.js';
import { REPLICA_TOKEN, type SealedCluster, startSealedCluster } from '../../support/sealed-replicas.js';
import { openSse, type SseEvent } from '../../support/sse-client.js';
import { waitFor } from '../../support/wait-for.js';

let cluster: SealedCluster;
beforeAll(async () => {
  cluster = await startSealedCluster(2);
}, 90_000);
afterAll(async () => {
  await cluster?.stop();
});

const auth = { authorization: `Bearer ${REPLICA_TOKEN}` };

/** An SDK client through the balancer that answers sampling and elicitation; resolves once its GET stream is open. */
const connect = async () => {
  const transport = new StreamableHTTPClientTransport(new URL(`${cluster.proxy.url}/mcp`), {
    requestInit: { headers: auth },
  });
  const client = new Client(
    { name: 'relay-across-replicas', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {}, roots: {} } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
    role: 'assistant',
    model: 'test-model',
    content: {
      type: 'text',
      text: `forty-two to ${(request.params.messages[0]?.content as { text?: string } | undefined)?.text}`,
    },
  }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///work/here', name: 'w' }] }));
  const gets = cluster.proxy.trail.filter((r) => r.method === 'GET').length;
  await client.connect(transport);
  // Its GET stream open, requests alternate replicas one by one from here.
  await waitFor(() => cluster.proxy.trail.filter((r) => r.method === 'GET').length > gets);
  return { client, transport };
};

/** The replica a POST whose body contains `text` went to (the last such). */
const replicaOf = (text: string): string | undefined =>
  cluster.proxy.trail.findLast((r) => r.method === 'POST' && r.body.includes(text))?.replica;

describe('a session’s traffic across replicas (fleet bus)', () => {
  it('answers an upstream’s sampling, elicitation and roots through the replica that does not serve the call', async () => {
    const { client } = await connect();
    const sampled = await client.callTool({ name: 'up__ask', arguments: { text: 'question one' } });
    expect(sampled.content).toEqual([{ type: 'text', text: 'sampled: forty-two to question one' }]);
    // The call went to one replica, the client's answer to the other: it was handed over.
    expect(replicaOf('"text":"question one"')).toBeDefined();
    expect(replicaOf('forty-two to question one')).toBeDefined();
    expect(replicaOf('forty-two to question one')).not.toBe(replicaOf('"text":"question one"'));

    const elicited = await client.callTool({ name: 'up__confirm', arguments: { text: 'sure?' } });
    expect(elicited.content).toEqual([{ type: 'text', text: 'elicited: accept {"ok":true}' }]);
    expect(replicaOf('"action":"accept"')).toBeDefined();
    expect(replicaOf('"action":"accept"')).not.toBe(replicaOf('sure?'));
    const roots = await client.callTool({ name: 'up__roots', arguments: { text: 'where' } });
    expect(roots.content).toEqual([{ type: 'text', text: 'roots: file:///work/here' }]);
    expect(replicaOf('file:///work/here')).toBeDefined();
    expect(replicaOf('file:///work/here')).not.toBe(replicaOf('"text":"where"'));
    // Several in a row: each answer lands on the other replica than its call, whichever that is.
    for (let i = 0; i < 4; i++) {
      const again = await client.callTool({ name: 'up__ask', arguments: { text: `q${i}` } });
      expect(again.content).toEqual([{ type: 'text', text: `sampled: forty-two to q${i}` }]);
    }
    await client.close();
  });

  it('cancels a call served on one replica with the notification that lands on the other', async () => {
    const { client } = await connect();
    const abort = new AbortController();
    const call = client.callTool({ name: 'up__wait', arguments: { text: 'hold-1' } }, undefined, {
      signal: abort.signal,
    });
    await waitFor(() => cluster.upstream.waiting.includes('hold-1'));
    abort.abort('no longer needed');
    await expect(call).rejects.toThrow();
    // The upstream's call was cancelled: the replica serving it heard the cancellation.
    await waitFor(() => cluster.upstream.cancelled.includes('hold-1'));
    expect(replicaOf('notifications/cancelled')).toBeDefined();
    expect(replicaOf('notifications/cancelled')).not.toBe(replicaOf('hold-1'));
    // The session goes on.
    const after = await client.callTool({ name: 'up__echo', arguments: { text: 'after' } });
    expect(after.content).toEqual([{ type: 'text', text: 'echo: after' }]);
    await client.close();
  });

  it('delivers an upstream’s progress on the stream of its call, whichever replica serves it', async () => {
    const { client } = await connect();
    for (let round = 0; round < 2; round++) {
      const seen: number[] = [];
      const result = await client.callTool({ name: 'up__slow', arguments: { steps: 3 } }, undefined, {
        onprogress: (p) => seen.push(p.progress),
      });
      expect(result.content).toEqual([{ type: 'text', text: 'done 3' }]);
      expect(seen).toEqual([1, 2, 3]);
    }
    await client.close();
  });

  it('holds a logging level set on one replica on every replica, also one restarted since', async () => {
    const { client } = await connect();
    const levels: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      levels.push(n.params.level);
    });
    const asked = performance.now();
    await client.setLoggingLevel('error');
    // Answered once the other replica said it applied it, not at the end of the wait for it.
    expect(performance.now() - asked).toBeLessThan(APPLY_WAIT_MS * 0.9);
    const expected = ['error', 'critical', 'alert', 'emergency'];
    const logOnEach = async () => {
      for (let i = 0; i < 2; i++) {
        levels.length = 0;
        const result = await client.callTool({ name: 'up__log', arguments: { text: `l${i}` } });
        expect(result.content).toEqual([{ type: 'text', text: 'logged at error and above' }]);
        expect(levels).toEqual(expected);
      }
      // One call landed on each replica.
      expect(replicaOf('"l0"')).not.toBe(replicaOf('"l1"'));
    };
    await logOnEach();
    // A replica restarted after the change rebuilds the session with it (session_state).
    await cluster.restart(0);
    await logOnEach();
    await client.close();
  }, 60_000);

  it('holds a resource subscription made on one replica on every replica, and delivers its updates', async () => {
    const { client } = await connect();
    // An update reaches the agent on its GET stream, whichever replica holds it.
    expect((await subscribeAndBump(client, cluster.upstream, 2))[0]).toBe('test://counter');
    await client.close();
  });
});

/** A raw request of `sessionId` to one replica. */
const raw = (base: string, sessionId: string, init: { method: string; body?: unknown; lastEventId?: string }) =>
  fetch(`${base}/mcp`, {
    method: init.method,
    headers: {
      ...auth,
      accept: init.method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
      ...(init.lastEventId ? { 'last-event-id': init.lastEventId } : {}),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });

describe('resuming a stream with Last-Event-ID across replicas', () => {
  it('resumes on the replica that sent the event and on another, from what it kept; a fresh GET stream; a 503 for an event not kept', async () => {
    const [zero, one] = cluster.replicas.map((r) => r.url) as [string, string];
    const transport = new StreamableHTTPClientTransport(new URL(`${zero}/mcp`), { requestInit: { headers: auth } });
    const client = new Client({ name: 'resumer', version: '1.0.0' });
    await client.connect(transport);
    const id = transport.sessionId as string;
    // A call with progress: its answer comes as an SSE stream whose events have ids.
    const answer = await raw(zero, id, {
      method: 'POST',
      body: {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'up__slow', arguments: { steps: 2 }, _meta: { progressToken: 'p' } },
      },
    });
    expect(answer.headers.get('content-type')).toContain('text/event-stream');
    const text = await answer.text();
    const ids = [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1] as string);
    const first = ids.find((_, i) => i > 0) as string;
    // Ids name the replica: 10 hex, `p` for a POST's stream, a number.
    expect(first).toMatch(/^[0-9a-f]{10}p\d+$/);
    // The replica that sent it replays what followed (that stream is over: it ends).
    const here = await raw(zero, id, { method: 'GET', lastEventId: first });
    expect(here.status).toBe(200);
    expect(await here.text()).toContain('"id":7');
    // Another replica replays it too, from what zero kept of the stream (up to its answer: it ends).
    const there = await waitFor(
      async () => {
        const resumed = await raw(one, id, { method: 'GET', lastEventId: first });
        if (resumed.status === 200) return resumed;
        await resumed.body?.cancel();
        return null;
      },
      { what: "zero's stream kept" },
    );
    expect(there.headers.get('content-type')).toContain('text/event-stream');
    const replayed = await there.text();
    expect(replayed).toContain('"id":7');
    expect(replayed).not.toContain(`id: ${first}\n`);
    // An event of another replica's POST stream that is not kept (or no longer): a 503 to retry elsewhere, in one line.
    const unknown = first.replace(/p\d+$/, 'p999999');
    const notKept = await raw(one, id, { method: 'GET', lastEventId: unknown });
    expect(notKept.status).toBe(503);
    expect(notKept.headers.get('retry-after')).toBe('1');
    expect(((await notKept.json()) as { error: { message: string } }).error.message).toBe(
      `Event ${unknown} was sent by another replica, which serves its request: retry, the balancer will send the retry to another replica`,
    );
    // An id of another replica's GET stream: a fresh GET stream here (nothing replayed).
    const standalone = first.replace(/p(\d+)$/, 'g$1');
    const fresh = await raw(one, id, { method: 'GET', lastEventId: standalone });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('content-type')).toContain('text/event-stream');
    await fresh.body?.cancel();
    // A made-up id is still refused as before.
    expect((await raw(one, id, { method: 'GET', lastEventId: 'nonsense' })).status).toBe(400);
    await client.close();
  });
});

describe('resuming the GET stream on another replica', () => {
  it('replays what the GET stream of one replica sent after the last event the client saw, then goes on', async () => {
    const [zero, one] = cluster.replicas.map((r) => r.url) as [string, string];
    const sql = postgres(cluster.databaseUrl, { max: 1, onnotice: () => {} });
    const opened = await fetch(`${zero}/mcp`, {
      method: 'POST',
      headers: { ...auth, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'resume-get', version: '1' } },
      }),
    });
    const id = opened.headers.get('mcp-session-id') as string;
    await opened.text();
    expect(
      (await raw(zero, id, { method: 'POST', body: { jsonrpc: '2.0', method: 'notifications/initialized' } })).status,
    ).toBe(202);
    const headers = { ...auth, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
    /** A bot's activity: every /mcp session of the admin is told, on its GET stream. */
    const botMade = async (slug: string) =>
      expect(
        (
          await fetch(`${zero}/api/bots`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ slug, name: slug }),
          })
        ).status,
      ).toBe(201);
    const about = (slug: string) => (e: SseEvent) => JSON.stringify(e.data).includes(`"bot":"${slug}"`);

    const first = await openSse(`${zero}/mcp`, headers);
    await botMade('seen-before');
    const seen = await first.next(about('seen-before'));
    expect(seen.id).toMatch(/^[0-9a-f]{10}g\d+$/);
    // The client goes away; what zero sends meanwhile is kept where any replica reads it.
    await first.close();
    const kept = async () =>
      (await sql`select count(*)::int as n from stream_events where data like '%"missed-meanwhile"%'`)[0]?.n;
    await botMade('missed-meanwhile');
    await waitFor(async () => (await kept()) > 0, { what: 'the missed event kept' });

    // The client comes back through the other replica: it is replayed zero's events, then live ones.
    const again = await openSse(`${one}/mcp`, { ...headers, 'last-event-id': seen.id as string });
    const missed = await again.next(about('missed-meanwhile'));
    expect(missed.id?.slice(0, 10)).toBe(seen.id?.slice(0, 10));
    expect(again.events.some(about('seen-before'))).toBe(false);
    await botMade('after-resuming');
    const live = await again.next(about('after-resuming'));
    // Sent by `one` now: its own ids.
    expect(live.id?.slice(0, 10)).not.toBe(seen.id?.slice(0, 10));
    await again.close();

    // A plain call's messages are not kept: only the GET stream's are.
    const call = await raw(one, id, {
      method: 'POST',
      body: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'up__echo', arguments: { text: 'plain' } } },
    });
    expect(await call.text()).toContain('echo: plain');
    expect((await sql`select count(*)::int as n from stream_events where data like '%plain%'`)[0]?.n).toBe(0);
    await raw(one, id, { method: 'DELETE' });
    await sql.end();
  });
});
