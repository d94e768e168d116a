/**
 * Sessions across replicas that are processes (issue 22, its tests' setup): three `bnity
 * serve` children on one PostgreSQL database with one cluster key, behind the round-robin
 * balancer of the tests (no affinity), all serving one Streamable HTTP upstream that asks the
 * agent things (`asking-upstream.ts`). The SDK's v1 client, with sampling and elicitation
 * handlers and a resource subscription, keeps one session through all three; the v2 client
 * pinned to 2026-07-28 is answered by all three. The same behaviours are tested in detail
 * with services in one process (test/http/mcp/session-relay-across-replicas.test.ts,
 * modern-across-replicas.test.ts); here they cross real process boundaries.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AskingUpstream, startAskingUpstream, subscribeAndBump } from '../support/asking-upstream.js';
import { CLUSTER_TOKEN, type Replica, startReplica } from '../support/cluster-replicas.js';
import { connectV2Client } from '../support/modern-client.js';
import { type RoundRobinProxy, startRoundRobinProxy } from '../support/round-robin-proxy.js';
import { createPostgresDatabase } from '../support/test-db.js';

const CLUSTER_KEY = 'sessions-across-processes-key-0123456789abcdef';
const cleanup: (() => Promise<unknown>)[] = [];
let upstream: AskingUpstream;
let replicas: Replica[];
let proxy: RoundRobinProxy;

beforeAll(async () => {
  upstream = await startAskingUpstream();
  cleanup.push(async () => upstream.close());
  const database = await createPostgresDatabase();
  cleanup.push(() => database.drop());
  // The first replica migrates; the others start on the migrated database together.
  const start = (id: string) =>
    startReplica(id, database.url, { up: { url: upstream.url } }, cleanup, {
      env: { BOTERNITY_CLUSTER_KEY: CLUSTER_KEY },
    });
  replicas = [await start('p0')];
  replicas.push(...(await Promise.all([start('p1'), start('p2')])));
  proxy = await startRoundRobinProxy(replicas.map((r) => r.url));
  cleanup.push(() => proxy.close());
}, 120_000);
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The replica a POST whose body contains `text` went to (the last such). */
const replicaOf = (text: string): string | undefined =>
  proxy.trail.findLast((r) => r.method === 'POST' && r.body.includes(text))?.replica;

describe('sessions across replica processes behind a balancer with no affinity', () => {
  it('keeps one v1 session through three processes: calls, sampling and elicitation answered elsewhere, a subscription', async () => {
    const client = new Client(
      { name: 'across-processes', version: '1.0.0' },
      { capabilities: { sampling: {}, elicitation: {} } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: 'forty-two' },
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { sure: true } }));
    const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${CLUSTER_TOKEN}` } },
    });
    await client.connect(transport);
    const session = transport.sessionId;

    for (let i = 0; i < 6; i++) {
      const result = await client.callTool({ name: 'up__echo', arguments: { text: `call ${i}` } });
      expect(result.content).toEqual([{ type: 'text', text: `echo: call ${i}` }]);
    }
    // Every replica served some of the session, which never changed.
    expect(new Set(proxy.trail.filter((r) => r.body.includes('"call ')).map((r) => r.replica)).size).toBe(3);
    expect(transport.sessionId).toBe(session);

    const sampled = await client.callTool({ name: 'up__ask', arguments: { text: 'the answer?' } });
    expect(sampled.content).toEqual([{ type: 'text', text: 'sampled: forty-two' }]);
    expect(replicaOf('"forty-two"')).not.toBe(replicaOf('the answer?'));
    const elicited = await client.callTool({ name: 'up__confirm', arguments: { text: 'sure?' } });
    expect(elicited.content).toEqual([{ type: 'text', text: 'elicited: accept {"sure":true}' }]);
    expect(replicaOf('"action":"accept"')).not.toBe(replicaOf('sure?'));

    // An update reaches the agent on its GET stream, whichever replica holds it.
    expect((await subscribeAndBump(client, upstream, 3))[0]).toBe('test://counter');
    expect(transport.sessionId).toBe(session);
    await client.close();
  }, 60_000);

  it('answers a v2 client pinned to 2026-07-28 on every replica', async () => {
    const client = await connectV2Client(`${proxy.url}/mcp`, 'modern', { token: CLUSTER_TOKEN });
    const before = replicas.map((r) => proxy.sent.get(r.url) ?? 0);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('up__echo');
    for (let i = 0; i < 6; i++) {
      const result = await client.callTool({ name: 'up__echo', arguments: { text: `modern ${i}` } });
      expect(result.content).toEqual([{ type: 'text', text: `echo: modern ${i}` }]);
    }
    const after = replicas.map((r) => proxy.sent.get(r.url) ?? 0);
    expect(after.every((n, i) => n > (before[i] as number))).toBe(true);
    await client.close();
  }, 60_000);
});
