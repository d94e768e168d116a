/**
 * Server→client requests made outside any call, across replicas (issue 22 part 3, ADR 039
 * §3): a `scope: "session"` upstream asks the agent a sampling while no call of the agent
 * runs. The replica whose connection asks sends it on the agent's GET stream: its own, or,
 * when another replica holds it, through the fleet bus to that one. Two services on one
 * PostgreSQL database behind the round-robin balancer of the tests, an SDK v1 client that
 * answers sampling.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICA_TOKEN, type SealedCluster, startSealedCluster } from '../../support/sealed-replicas.js';
import { waitFor } from '../../support/wait-for.js';

let cluster: SealedCluster;
beforeAll(async () => {
  cluster = await startSealedCluster(2, { scope: 'session' });
}, 90_000);
afterAll(async () => {
  await cluster?.stop();
});

const auth = { authorization: `Bearer ${REPLICA_TOKEN}` };

/**
 * An SDK client through the balancer that answers sampling, its GET stream open; `sampled`
 * lists what it was asked; `getOn`: the replica its GET stream went to. With `reconnect:
 * false` a GET stream that ends is not opened again.
 */
const connect = async ({ reconnect = true }: { reconnect?: boolean } = {}) => {
  const transport = new StreamableHTTPClientTransport(new URL(`${cluster.proxy.url}/mcp`), {
    requestInit: { headers: auth },
    ...(reconnect
      ? {}
      : {
          reconnectionOptions: {
            maxRetries: 0,
            initialReconnectionDelay: 1000,
            maxReconnectionDelay: 1000,
            reconnectionDelayGrowFactor: 1,
          },
        }),
  });
  const client = new Client(
    { name: 'outside-calls', version: '1.0.0' },
    { capabilities: { sampling: {}, roots: { listChanged: true } } },
  );
  const sampled: string[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const text = (request.params.messages[0]?.content as { text?: string } | undefined)?.text ?? '';
    sampled.push(text);
    return { role: 'assistant', model: 'test-model', content: { type: 'text', text: `answer to ${text}` } };
  });
  const gets = cluster.proxy.trail.filter((r) => r.method === 'GET').length;
  await client.connect(transport);
  await waitFor(() => cluster.proxy.trail.filter((r) => r.method === 'GET').length > gets);
  const getOn = cluster.proxy.trail.filter((r) => r.method === 'GET').at(-1)?.replica as string;
  return { client, transport, sampled, getOn };
};

/** The replica a POST whose body contains `text` went to (the last such). */
const replicaOf = (text: string): string | undefined =>
  cluster.proxy.trail.findLast((r) => r.method === 'POST' && r.body.includes(text))?.replica;

/**
 * Call `later` until one call lands on the replica `where` says (`same` or `other` than
 * `getOn`); its text names the upstream session of that replica.
 */
const laterOn = async (client: Client, getOn: string, where: 'same' | 'other', name: string): Promise<string> => {
  for (let i = 0; i < 4; i++) {
    const text = `${name}-${i}`;
    await client.callTool({ name: 'up__later', arguments: { text } });
    if ((replicaOf(`"text":"${text}"`) === getOn) === (where === 'same')) return text;
  }
  throw new Error(`no call of ${name} landed on the ${where} replica`);
};

describe('server→client requests outside any call, across replicas', () => {
  it.each([
    ['through the replica holding its GET stream when another replica asks', 'other'],
    ['on the GET stream of the replica that asks (unchanged)', 'same'],
  ] as const)('reaches the agent %s', async (_, where) => {
    const { client, sampled, getOn } = await connect();
    const text = await laterOn(client, getOn, where, where);
    // No call runs now: the upstream asks on its own, on the replica `where` says.
    const answer = await cluster.upstream.askOutside(text, { timeout: 10_000 });
    expect(answer).toBe(`answer to ${text}`);
    expect(sampled).toEqual([text]);
    await client.close();
  });

  it('lets each replica’s upstream list the agent’s roots after they changed, whichever holds the GET stream', async () => {
    const { client, getOn } = await connect();
    let roots = 'file:///before';
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: roots }] }));
    // Each replica opens the session's own connection to the upstream.
    await laterOn(client, getOn, 'same', 'roots-same');
    await laterOn(client, getOn, 'other', 'roots-other');
    const before = cluster.upstream.rootsListed.length;
    roots = 'file:///after';
    await client.sendRootsListChanged();
    // Both connections hear it (relayed to the other replica) and ask roots/list of no call.
    await waitFor(() => cluster.upstream.rootsListed.length - before >= 2, { what: 'both upstream sessions listed' });
    expect(cluster.upstream.rootsListed.slice(before)).toEqual(['file:///after', 'file:///after']);
    await client.close();
  });

  it('fails at once, with a clear error to the upstream, when the GET stream’s replica no longer has it', async () => {
    const { client, sampled, getOn } = await connect({ reconnect: false });
    const text = await laterOn(client, getOn, 'other', 'gone');
    // The agent's GET stream ends (its replica restarted) and is not opened again.
    const at = cluster.replicas.findIndex((r) => r.url === getOn);
    const ended = new Promise<void>((resolve) => {
      client.onerror = () => resolve();
    });
    await cluster.restart(at);
    await ended;
    const started = Date.now();
    const failure = await cluster.upstream.askOutside(text, { timeout: 30_000 }).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(/GET stream/);
    // Well before the upstream's own timeout: the request was not left waiting.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(sampled).toEqual([]);
    await client.close();
  });
});
