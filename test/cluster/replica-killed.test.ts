/**
 * A replica killed with `kill -9` (issue 22 part 4, ADR 039): three `bnity serve` processes on
 * one PostgreSQL database with one cluster key, behind the round-robin balancer of the tests.
 * A session has a call in flight on the replica that leads; that replica is killed. The call
 * fails at once for its client (an error, not a hang); the session's next request is served by
 * a survivor, which rebuilds it from its sealed id; a new session is answered within a second;
 * another replica takes the leadership; the killed replica's stdio children end with it (their
 * stdin closes), while its `upstream_processes` rows stay for its next start to reap.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterView } from '../../src/cluster/index.js';
import { isAlive } from '../../src/upstream/process-tree.js';
import { CLUSTER_TOKEN, type Replica, startReplica, tinyEntry } from '../support/cluster-replicas.js';
import { GATE_SERVER } from '../support/fixtures.js';
import { startRoundRobinProxy } from '../support/round-robin-proxy.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const CLUSTER_KEY = 'replica-killed-cluster-key-0123456789abcdef';
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** An HTTP server that holds every request until the test ends: a `fetch` call to it stays in flight. */
async function holdingServer() {
  const held: ServerResponse[] = [];
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    held.push(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanup.push(async () => {
    for (const res of held) res.end('released');
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hold`, held };
}

const connect = async (base: string) => {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${CLUSTER_TOKEN}` } },
  });
  const client = new Client({ name: 'replica-killed', version: '1.0.0' });
  await client.connect(transport);
  cleanup.push(() => client.close().catch(() => undefined));
  return { client, transport };
};

const echo = async (client: Client, text: string) => {
  const result = await client.callTool({ name: 'gate__echo', arguments: { text } });
  expect(result.content).toEqual([{ type: 'text', text }]);
};

type ServerEntry = { name: string; state: string; pid: number | null };
/** The pid of each of `replica`'s stdio servers, once all are connected. */
const childrenOf = async (replica: Replica): Promise<{ gate: number; tiny: number }> =>
  waitFor(
    async () => {
      const { servers } = (await replica.api<{ servers: ServerEntry[] }>('GET', '/api/servers')).body;
      const pid = (name: string) => servers.find((s) => s.name === name && s.state === 'connected')?.pid;
      const [gate, tiny] = [pid('gate'), pid('tiny')];
      return gate && tiny ? { gate, tiny } : null;
    },
    { what: `the servers connected on ${replica.id}`, timeoutMs: 20_000 },
  );

describe('a replica killed with kill -9', () => {
  it('fails its call in flight at once; the session goes on on a survivor, and so does the fleet', async () => {
    const database = await createPostgresDatabase({ empty: true });
    cleanup.push(database.drop);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    cleanup.push(() => sql.end());
    const servers = { gate: { command: process.execPath, args: [GATE_SERVER] }, tiny: tinyEntry() };
    const extras = {
      settings: { replicas: { heartbeatMs: 200, staleAfterMs: 1_500, leaderRetryMs: 200 } },
      env: { BOTERNITY_CLUSTER_KEY: CLUSTER_KEY },
    };
    // Started one after the other: the first leads.
    const replicas: Replica[] = [];
    for (const id of ['a', 'b', 'c']) replicas.push(await startReplica(id, database.url, servers, cleanup, extras));
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    const pids = { a: await childrenOf(a), b: await childrenOf(b), c: await childrenOf(c) };
    await waitFor(async () => (await b.api<ClusterView>('GET', '/api/cluster')).body.leader === 'a', {
      what: 'a leading',
    });
    const proxy = await startRoundRobinProxy(replicas.map((r) => r.url));
    cleanup.push(() => proxy.close());
    const hold = await holdingServer();

    const { client, transport } = await connect(proxy.url);
    const id = transport.sessionId;
    expect(id?.startsWith('v1.')).toBe(true);
    // Calls until the next request goes to a (the balancer takes the replicas in turn).
    const lastPost = () => proxy.routed.filter((r) => r.method === 'POST').at(-1)?.replica;
    for (let n = 0; lastPost() !== c.url || n < 3; n++) await echo(client, `warm ${n}`);

    const call = client.callTool({ name: 'gate__fetch', arguments: { url: hold.url } });
    const outcome = call.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await waitFor(() => hold.held.length === 1, { what: "the call in flight on a's gate server" });
    expect(lastPost()).toBe(a.url);

    const killedAt = performance.now();
    a.process.child.kill('SIGKILL');
    const failed = await outcome;
    const failedAfter = performance.now() - killedAt;
    // An error, at once: the balancer's 502 for a request its replica dropped.
    expect(failed).toMatch(/502|replica failed/);
    expect(failedAfter).toBeLessThan(1_000);
    await a.process.exited;

    // The session's next requests: served by the survivors, its sealed id rebuilt there.
    for (let n = 0; n < 4; n++) await echo(client, `after ${n}`);
    expect(transport.sessionId).toBe(id);
    expect(new Set(proxy.routed.slice(-4).map((r) => r.replica))).toEqual(new Set([b.url, c.url]));

    // A new session after the kill: answered on a survivor within a second.
    const started = performance.now();
    const fresh = await connect(proxy.url);
    await echo(fresh.client, 'fresh');
    expect(performance.now() - started).toBeLessThan(1_000);

    // The leadership goes to a survivor (the lock died with a's connection).
    const view = await waitFor(
      async () => {
        const { body } = await b.api<ClusterView>('GET', '/api/cluster');
        return body.leader === 'b' || body.leader === 'c' ? body : null;
      },
      { what: 'a survivor leading', timeoutMs: 10_000 },
    );
    expect(view.replicas.filter((r) => r.leader).map((r) => r.id)).toEqual([view.leader]);

    // a's stdio children: each learns of its parent's death by its stdin closing. An idle one
    // ends at once; one still working (the held fetch) lives on until its work ends, then ends
    // too. Their rows stay, for a's next start to reap what still runs (test/cli/serve-cluster);
    // the survivors' children are untouched.
    await waitFor(() => !isAlive(pids.a.tiny), { what: "a's idle child ending", timeoutMs: 5_000 });
    expect(isAlive(pids.a.gate)).toBe(true);
    for (const res of hold.held) res.end('released');
    await waitFor(() => !isAlive(pids.a.gate), { what: "a's busy child ending once its work ended", timeoutMs: 5_000 });
    for (const pid of [pids.b.gate, pids.b.tiny, pids.c.gate, pids.c.tiny]) expect(isAlive(pid)).toBe(true);
    const rows = await sql<{ replica: string; pid: number }[]>`select replica, pid from upstream_processes`;
    const expected = Object.entries(pids).flatMap(([replica, p]) => [
      [replica, p.gate],
      [replica, p.tiny],
    ]);
    expect(rows.map((r) => [r.replica, r.pid]).sort()).toEqual(expected.sort());
  }, 120_000);
});
