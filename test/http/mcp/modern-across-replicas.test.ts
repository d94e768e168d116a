/**
 * MCP 2026-07-28 across replicas (issue 22 part 5, ADR 044): two services on one embedded
 * PostgreSQL with one cluster key, behind the plain round-robin balancer, each with its own
 * connection (its own session) to one upstream. The v2 client pinned to 2026-07-28: its
 * stateless requests on any replica; a `subscriptions/listen` stream on one replica hears
 * the list changes and resource updates the other replica's upstream connection raises, and
 * one change both replicas hear once; an `input_required` retry that lands on the other
 * replica reaches the call waiting for it; a forged state is refused.
 */
import type { Client } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CreateMessageResultSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectV2Client, envelope, postModern } from '../../support/modern-client.js';
import { REPLICA_TOKEN, type SealedCluster, startSealedCluster } from '../../support/sealed-replicas.js';
import { waitFor } from '../../support/wait-for.js';

const NOTE = 'fleet://note';
/** Every upstream session (one per replica's connection). */
const sessions = new Set<McpServer>();

/** One upstream session: `grow` changes its own tool list, `grow_all` every session's, `touch` updates NOTE here. */
function upstreamSession() {
  const mcp = new McpServer({ name: 'fleet', version: '1.0.0' }, { capabilities: { resources: { subscribe: true } } });
  sessions.add(mcp);
  const add = (on: McpServer, name: string) =>
    on.registerTool(name, { description: 'grown' }, async () => ({ content: [{ type: 'text', text: name }] }));
  mcp.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  mcp.registerTool('grow', { inputSchema: { name: z.string() } }, async ({ name }) => {
    add(mcp, name);
    return { content: [{ type: 'text', text: 'grown here' }] };
  });
  mcp.registerTool('grow_all', { inputSchema: { name: z.string() } }, async ({ name }) => {
    for (const session of sessions) add(session, name);
    return { content: [{ type: 'text', text: 'grown everywhere' }] };
  });
  mcp.registerTool('touch', {}, async () => {
    await mcp.server.sendResourceUpdated({ uri: NOTE });
    return { content: [{ type: 'text', text: 'touched' }] };
  });
  mcp.registerTool('ask', { inputSchema: { prompt: z.string() } }, async ({ prompt }, extra) => {
    const answer = await extra.sendRequest(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 10 },
      },
      CreateMessageResultSchema,
    );
    return { content: [{ type: 'text', text: `sampled: ${JSON.stringify(answer.content)}` }] };
  });
  mcp.registerResource('note', NOTE, {}, async () => ({ contents: [{ uri: NOTE, text: 'a note' }] }));
  mcp.server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
  mcp.server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
  return { server: mcp.server };
}

let cluster: SealedCluster;
const clients: Client[] = [];
beforeAll(async () => {
  cluster = await startSealedCluster(2, { upstream: upstreamSession });
}, 90_000);
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await cluster?.stop();
});

/** A v2 client pinned to 2026-07-28 on `base` (the balancer, or one replica); one client name: one view everywhere. */
const modern = async (base: string, options: Parameters<typeof connectV2Client>[2] = {}) => {
  const client = await connectV2Client(`${base}/mcp`, 'modern', { token: REPLICA_TOKEN, ...options });
  clients.push(client);
  return client;
};
const replicaUrl = (i: number) => cluster.replicas[i]?.url as string;
const sentTo = () => cluster.replicas.map((r) => cluster.proxy.sent.get(r.url) ?? 0);

describe('MCP 2026-07-28 across replicas', () => {
  it('serves stateless requests on whichever replica the balancer picks', async () => {
    const client = await modern(cluster.proxy.url);
    expect(client.getProtocolEra()).toBe('modern');
    const before = sentTo();
    for (let i = 0; i < 6; i++) {
      const result = await client.callTool({ name: 'up__echo', arguments: { text: `n${i}` } });
      expect(result.content).toEqual([{ type: 'text', text: `echo: n${i}` }]);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('up__echo');
    }
    const after = sentTo();
    for (const [i, n] of after.entries()) expect(n - (before[i] ?? 0)).toBeGreaterThanOrEqual(5);
  });
});

