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
/** Every upstream session (one per replica's connection), and those subscribed to NOTE. */
const sessions = new Set<McpServer>();
const subscribed = new Set<McpServer>();

/**
 * One upstream session: `grow` changes its own tool list, `grow_all` every session's,
 * `add_prompt` its own prompt list, `touch` updates NOTE here, `touch_all` on every session
 * subscribed to it, `ask` samples.
 */
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
  const prompt = (name: string) =>
    mcp.registerPrompt(name, {}, async () => ({ messages: [{ role: 'user', content: { type: 'text', text: name } }] }));
  // Prompts from the start: the capability is declared at connect.
  prompt('first');
  mcp.registerTool('add_prompt', { inputSchema: { name: z.string() } }, async ({ name }) => {
    prompt(name);
    return { content: [{ type: 'text', text: 'prompt added here' }] };
  });
  mcp.registerTool('touch', {}, async () => {
    await mcp.server.sendResourceUpdated({ uri: NOTE });
    return { content: [{ type: 'text', text: 'touched' }] };
  });
  mcp.registerTool('touch_all', {}, async () => {
    // Its own session first: the replica called hears it first, as a shared upstream's first notified would.
    for (const session of [mcp, ...[...subscribed].filter((s) => s !== mcp)])
      await session.server.sendResourceUpdated({ uri: NOTE });
    return { content: [{ type: 'text', text: 'touched everywhere' }] };
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
  mcp.server.setRequestHandler(SubscribeRequestSchema, async () => {
    subscribed.add(mcp);
    return {};
  });
  mcp.server.setRequestHandler(UnsubscribeRequestSchema, async () => {
    subscribed.delete(mcp);
    return {};
  });
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

/** A hand-made `tools/call` of `up__ask` to `base`, or its retry with `requestState` (and no answers). */
const askOn = (base: string, requestState?: string) =>
  postModern(
    `${base}/mcp`,
    {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'up__ask',
        arguments: { prompt: 'anyone?' },
        ...(requestState ? { requestState, inputResponses: {} } : {}),
        _meta: envelope({ sampling: {} }),
      },
    },
    { token: REPLICA_TOKEN, headers: { 'mcp-method': 'tools/call', 'mcp-name': 'up__ask' } },
  );

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

  it("hears on a listen stream the list changes of either replica's upstream, and a change both hear once", async () => {
    const listener = await modern(cluster.proxy.url);
    const direct = [await modern(replicaUrl(0)), await modern(replicaUrl(1))];
    const heard = { tools: 0, prompts: 0 };
    listener.setNotificationHandler('notifications/tools/list_changed', () => {
      heard.tools += 1;
    });
    listener.setNotificationHandler('notifications/prompts/list_changed', () => {
      heard.prompts += 1;
    });
    const before = sentTo();
    const listening = await listener.listen({ toolsListChanged: true, promptsListChanged: true });
    expect(listening.honoredFilter).toEqual({ toolsListChanged: true, promptsListChanged: true });
    // The replica the stream is open on, and the other one.
    const here = sentTo().findIndex((n, i) => n > (before[i] ?? 0));
    const there = 1 - here;
    // One change every upstream session makes: both replicas hear it, the stream gets it once.
    await direct[there]?.callTool({ name: 'up__grow_all', arguments: { name: 'everywhere' } });
    await waitFor(() => heard.tools >= 1, { what: 'tools/list_changed of the change both replicas saw' });
    // A change of the other replica's own upstream session, heard here through the bus after
    // that replica's copy of the first: once it is heard, the copy has been let through or not.
    await direct[there]?.callTool({ name: 'up__add_prompt', arguments: { name: 'there_only' } });
    await waitFor(() => heard.prompts >= 1, { what: "prompts/list_changed of the other replica's own change" });
    expect(heard).toEqual({ tools: 1, prompts: 1 });
    // Each replica's own tool change is heard.
    await direct[there]?.callTool({ name: 'up__grow', arguments: { name: 'there_only' } });
    await waitFor(() => heard.tools >= 2, { what: "tools/list_changed of the other replica's change" });
    await direct[here]?.callTool({ name: 'up__grow', arguments: { name: 'here_only' } });
    await waitFor(() => heard.tools >= 3, { what: "tools/list_changed of this replica's change" });
    await listening.close();
  });

  it("hears on a listen stream the updates of a resource either replica's upstream raises, one both raise once", async () => {
    const listener = await modern(cluster.proxy.url);
    const direct = [await modern(replicaUrl(0)), await modern(replicaUrl(1))];
    const heard = { updates: 0, prompts: 0 };
    listener.setNotificationHandler('notifications/resources/updated', (n) => {
      if (n.params.uri === `up+${NOTE}` || n.params.uri.endsWith(NOTE)) heard.updates += 1;
    });
    listener.setNotificationHandler('notifications/prompts/list_changed', () => {
      heard.prompts += 1;
    });
    const uri = (await listener.listResources()).resources.find((r) => r.uri.endsWith('note'))?.uri as string;
    expect(uri).toBeTruthy();
    const before = sentTo();
    const listening = await listener.listen({ resourceSubscriptions: [uri], promptsListChanged: true });
    const here = sentTo().findIndex((n, i) => n > (before[i] ?? 0));
    const there = 1 - here;
    // The other replica holds the resource for the stream: its own upstream session is subscribed too.
    await waitFor(() => subscribed.size === 2, { what: 'both upstream sessions subscribed to the note' });
    await direct[there]?.callTool({ name: 'up__touch', arguments: {} });
    await waitFor(() => heard.updates >= 1, { what: "resources/updated raised on the other replica's connection" });
    await direct[here]?.callTool({ name: 'up__touch', arguments: {} });
    await waitFor(() => heard.updates >= 2, { what: "resources/updated raised on this replica's connection" });
    // One update both connections hear: once on the stream (the bus order makes the check sure, as above).
    await direct[here]?.callTool({ name: 'up__touch_all', arguments: {} });
    await waitFor(() => heard.updates >= 3, { what: 'resources/updated both replicas heard' });
    await direct[there]?.callTool({ name: 'up__add_prompt', arguments: { name: 'after_touch_all' } });
    await waitFor(() => heard.prompts >= 1, { what: "prompts/list_changed of the other replica's change" });
    expect(heard.updates).toBe(3);
    await listening.close();
    // The stream gone, every replica lets go of the resource.
    await waitFor(() => subscribed.size === 0, { what: 'both upstream sessions unsubscribed' });
  });

  it('asks for sampling as input_required on one replica and takes the retry on the other', async () => {
    const client = await modern(cluster.proxy.url, { capabilities: { sampling: {} } });
    const asked: string[] = [];
    client.setRequestHandler('sampling/createMessage', async (request) => {
      asked.push(JSON.stringify(request.params.messages[0]?.content));
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'from the agent' } };
    });
    for (let i = 0; i < 4; i++) {
      const before = sentTo();
      const result = await client.callTool({ name: 'up__ask', arguments: { prompt: `question ${i}` } });
      expect(result.content).toEqual([{ type: 'text', text: 'sampled: {"type":"text","text":"from the agent"}' }]);
      // The call and its retry: one request to each replica.
      expect(sentTo().map((n, r) => n - (before[r] ?? 0))).toEqual([1, 1]);
    }
    expect(asked).toHaveLength(4);
  });

  it('refuses a forged or altered requestState at once, on any replica', async () => {
    const first = (await (await askOn(replicaUrl(0))).json()) as {
      result: { resultType: string; requestState: string };
    };
    expect(first.result.resultType).toBe('input_required');
    const state = first.result.requestState;
    expect(state.startsWith('r1.')).toBe(true);
    const last = state.at(-1) === 'A' ? 'B' : 'A';
    for (const forged of [`${state.slice(0, -1)}${last}`, 'r1.bm9ib2R5.abc.def', 'made-up'])
      for (const i of [0, 1])
        expect(await (await askOn(replicaUrl(i), forged)).json()).toMatchObject({
          id: 7,
          error: { code: -32602, message: 'Invalid or expired requestState' },
        });
  });

  it("refuses a retry as expired when the call's replica was restarted meanwhile, on the other replica at once", async () => {
    const first = (await (await askOn(replicaUrl(0))).json()) as { result: { requestState: string } };
    expect(first.result.requestState.startsWith('r1.')).toBe(true);
    // A drain ends the calls waiting for input; the replica comes back under the same id, without them.
    await cluster.restart(0);
    const started = performance.now();
    expect(await (await askOn(replicaUrl(1), first.result.requestState)).json()).toMatchObject({
      id: 7,
      error: { code: -32602, message: 'Invalid or expired requestState' },
    });
    // Answered by the restarted replica over the bus, not by waiting out the acknowledgement.
    expect(performance.now() - started).toBeLessThan(4_000);
  });
});
