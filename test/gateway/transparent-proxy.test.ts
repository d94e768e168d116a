/**
 * One server's endpoint is a transparent proxy (G1): an agent on the `server` view of
 * server-everything (the real npm server, in-process) sees and gets what a client connected
 * to it directly does, including sampling, elicitation, roots, progress, subscriptions and
 * logging, and its subscriptions outlive a reconnect.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEverythingServer } from '../support/everything.js';
import { type GatewayHarness, startGateway } from '../support/gateway-harness.js';
import { waitFor } from '../support/wait-for.js';

const capabilities = { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } };

/** Answer sampling, elicitation and roots the same way on both clients. */
function answerServerRequests(client: Client, tag: string) {
  const seen: string[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    seen.push('sampling');
    const text = JSON.stringify(request.params.messages[0]?.content);
    return {
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: `sampled(${tag}) ${text.length}` },
    };
  });
  client.setRequestHandler(ElicitRequestSchema, async () => {
    seen.push('elicitation');
    return { action: 'accept', content: { name: 'Ada', check: true, color: 'red' } };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    seen.push('roots');
    return { roots: [{ uri: 'file:///tmp/agent-root', name: 'agent root' }] };
  });
  return seen;
}

// Answers name their client, and dynamic resources carry the time they were made.
const normalise = (value: unknown) =>
  JSON.parse(
    JSON.stringify(value)
      .replace(/sampled\((direct|proxy)\)/g, 'sampled(x)')
      .replace(/created at [^"\\]+/g, 'created at <time>'),
  );

describe('one server endpoint: a transparent proxy of server-everything', () => {
  let gw: GatewayHarness;
  let direct: Client;
  let proxy: Client;
  let directSeen: string[];
  let proxySeen: string[];

  beforeAll(async () => {
    gw = await startGateway({ servers: { everything: { make: () => createEverythingServer().server } } });
    direct = new Client({ name: 'direct', version: '1' }, { capabilities });
    directSeen = answerServerRequests(direct, 'direct');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    serverSide.sessionId = randomUUID();
    await createEverythingServer().server.connect(serverSide);
    await direct.connect(clientSide);
    ({ client: proxy } = await gw.agent({ kind: 'server', server: 'everything' }, { capabilities }));
    proxySeen = answerServerRequests(proxy, 'proxy');
  });
  afterAll(async () => {
    await direct?.close();
    await gw?.stop();
  });

  it('lists the same tools, resources, templates and prompts, with its name and instructions', async () => {
    expect((await proxy.listTools()).tools).toEqual((await direct.listTools()).tools);
    expect((await proxy.listResources()).resources).toEqual((await direct.listResources()).resources);
    expect((await proxy.listResourceTemplates()).resourceTemplates).toEqual(
      (await direct.listResourceTemplates()).resourceTemplates,
    );
    expect((await proxy.listPrompts()).prompts).toEqual((await direct.listPrompts()).prompts);
    expect((await proxy.listTools()).tools.length).toBeGreaterThan(10);
    expect(proxy.getInstructions()).toBe(direct.getInstructions());
    expect(proxy.getServerVersion()).toEqual(direct.getServerVersion());
    expect(Object.keys(proxy.getServerCapabilities() ?? {}).sort()).toEqual(
      Object.keys(direct.getServerCapabilities() ?? {})
        .filter((k) => ['tools', 'resources', 'prompts', 'completions', 'logging'].includes(k))
        .sort(),
    );
  });

  it('returns the same results for tools, resources, prompts and completions', async () => {
    const same = async <T>(run: (c: Client) => Promise<T>) =>
      expect(normalise(await run(proxy))).toEqual(normalise(await run(direct)));
    await same((c) => c.callTool({ name: 'echo', arguments: { message: 'hello through boternity' } }));
    await same((c) => c.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } }));
    await same((c) => c.callTool({ name: 'get-structured-content', arguments: { location: 'New York' } }));
    const [first] = (await direct.listResources()).resources;
    await same((c) => c.readResource({ uri: first?.uri as string }));
    await same((c) => c.readResource({ uri: 'demo://resource/dynamic/text/3' }));
    await same((c) =>
      c.getPrompt({ name: 'completable-prompt', arguments: { department: 'Engineering', name: 'Alice' } }),
    );
    await same((c) =>
      c.complete({
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'S' },
      }),
    );
    const [template] = (await direct.listResourceTemplates()).resourceTemplates;
    await same((c) =>
      c.complete({
        ref: { type: 'ref/resource', uri: template?.uriTemplate as string },
        argument: { name: 'resourceId', value: '1' },
      }),
    );
    const completion = await proxy.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'S' },
    });
    expect(completion.completion.values).toEqual(['Sales', 'Support']);
  });

  it('relays sampling, elicitation and roots requests to this agent and their answers back', async () => {
    const sampled = await proxy.callTool({
      name: 'trigger-sampling-request',
      arguments: { prompt: 'ping', maxTokens: 10 },
    });
    expect(JSON.stringify(sampled.content)).toContain('sampled(proxy)');
    const elicited = await proxy.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(JSON.stringify(elicited.content)).toContain('Ada');
    const roots = await proxy.callTool({ name: 'get-roots-list', arguments: {} });
    expect(JSON.stringify(roots.content)).toContain('file:///tmp/agent-root');
    expect(proxySeen).toEqual(expect.arrayContaining(['sampling', 'elicitation', 'roots']));
    expect(directSeen).not.toContain('sampling');
  });

  it('relays progress of a long-running tool as the upstream sends it', async () => {
    const run = async (client: Client) => {
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
        undefined,
        { onprogress: (p) => progress.push(p.progress) },
      );
      return { progress, result };
    };
    const [viaProxy, viaDirect] = await Promise.all([run(proxy), run(direct)]);
    // server-everything sends its last step right before its result, and the SDK client may
    // take the result first and drop that step (a direct client too): steps 1 and 2 always arrive.
    expect(viaProxy.progress.slice(0, 2)).toEqual([1, 2]);
    expect([
      [1, 2],
      [1, 2, 3],
    ]).toContainEqual(viaProxy.progress);
    expect(viaDirect.progress.slice(0, 2)).toEqual([1, 2]);
    expect(viaProxy.result).toEqual(viaDirect.result);
  });

  it('relays resource updates and logging, and renews subscriptions after a reconnect', async () => {
    const updates: string[] = [];
    const logs: unknown[] = [];
    proxy.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    proxy.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    const [resource] = (await proxy.listResources()).resources;
    const uri = resource?.uri as string;
    await proxy.subscribeResource({ uri });
    await proxy.setLoggingLevel('debug');
    await proxy.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    await waitFor(() => logs.length > 0, { what: 'a logging message', timeoutMs: 8_000 });
    expect(logs[0]).toMatchObject({ level: expect.any(String) });
    await proxy.callTool({ name: 'toggle-simulated-logging', arguments: {} });

    await gw.drop('everything');
    await gw.inState('everything', 'reconnecting');
    await gw.inState('everything', 'connected');
    // The new upstream only knows of the subscription if boternity renewed it.
    await proxy.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await waitFor(() => updates.includes(uri), { what: 'an update from the new upstream', timeoutMs: 8_000 });
    await proxy.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await proxy.unsubscribeResource({ uri });
  });
});
