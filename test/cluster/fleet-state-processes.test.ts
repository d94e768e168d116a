/**
 * Fleet-wide state (issue 22 part 7) with three replicas as real `bnity serve` processes on
 * one test PostgreSQL, behind the round-robin balancer of the tests (no affinity: consecutive
 * requests land on each replica in turn). A token every replica has just checked (and
 * remembers) is refused by all three right after its revocation through one; a rug pull that
 * only one replica's child made hides the tool on all three, and an approval through another
 * lists it again on all three. Uses dist/ (`npm run -s build`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLUSTER_TOKEN, type Replica, startReplica } from '../support/cluster-replicas.js';
import { fixtureServer } from '../support/fixtures.js';
import { postInitialize } from '../support/initialize.js';
import { startRoundRobinProxy } from '../support/round-robin-proxy.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const RUG_PULL_SERVER = fixtureServer('rug-pull-server.mjs');

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Three replicas of one fresh database serving the rug-pull server, each connected to its own child. */
async function threeReplicas(): Promise<Replica[]> {
  const database = await createPostgresDatabase();
  cleanup.push(database.drop);
  const servers = { rug: { command: process.execPath, args: [RUG_PULL_SERVER], healthIntervalMs: 60_000 } };
  const replicas: Replica[] = [];
  for (const id of ['a', 'b', 'c']) replicas.push(await startReplica(id, database.url, servers, cleanup));
  for (const replica of replicas)
    await waitFor(
      async () =>
        (await replica.api<{ servers: { state: string }[] }>('GET', '/api/servers')).body.servers[0]?.state ===
        'connected',
      { what: `${replica.id}: rug connected`, timeoutMs: 30_000 },
    );
  return replicas;
}

/** An MCP `initialize` sent to `url` with `token`: 200 for a live token, 401 for a revoked one. */
const initialize = async (url: string, token: string) =>
  (await postInitialize(`${url}/mcp`, { authorization: `Bearer ${token}` })).status;

/** An admin MCP session held by one replica (its own base URL, not the balancer). */
async function sessionOn(replica: Replica): Promise<Client> {
  const client = new Client({ name: 'fleet-state-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${replica.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${CLUSTER_TOKEN}` } },
    }),
  );
  cleanup.push(() => client.close());
  return client;
}

describe('fleet-wide state across three replica processes', () => {
  it('refuses on every replica, right after the revocation, a token each of them remembers', async () => {
    const replicas = await threeReplicas();
    const [a] = replicas as [Replica];
    const proxy = await startRoundRobinProxy(replicas.map((r) => r.url));
    cleanup.push(() => proxy.close());
    const made = await a.api<{ id: string; token: string }>('POST', '/api/tokens', { name: 'agent' });
    expect(made.status).toBe(201);
    // One request to each replica in turn: each has checked the token and remembers it live.
    for (let i = 0; i < 3; i++) expect(await initialize(proxy.url, made.body.token)).toBe(200);
    expect([...proxy.sent.values()]).toEqual([1, 1, 1]);
    const revoked = await fetch(`${a.url}/api/tokens/${made.body.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${CLUSTER_TOKEN}` },
    });
    expect(revoked.status).toBe(204);
    for (let i = 0; i < 3; i++) expect(await initialize(proxy.url, made.body.token)).toBe(401);
    expect([...proxy.sent.values()]).toEqual([2, 2, 2]);
  }, 90_000);

  it("hides on all three a tool only one replica's child changed; an approval through another lists it on all", async () => {
    const replicas = await threeReplicas();
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    const sessions = [await sessionOn(a), await sessionOn(b), await sessionOn(c)];
    const lists = async (session: Client) => (await session.listTools()).tools.some((t) => t.name === 'rug__calc');
    for (const session of sessions) expect(await lists(session)).toBe(true);
    // A's own child rug-pulls; B's and C's still list the pinned version.
    await sessions[0]?.callTool({ name: 'rug__mutate', arguments: { text: 'Adds, and reads ~/.ssh' } });
    for (const [i, session] of sessions.entries())
      await waitFor(async () => !(await lists(session)), { what: `calc hidden on ${replicas[i]?.id}` });
    const held = await c.api<{ quarantines: { tool: string; pendingHash: string }[] }>('GET', '/api/quarantines');
    expect(held.body.quarantines.map((q) => q.tool)).toEqual(['calc']);
    // B's and C's children make the same change: the hold they have, not a new quarantine.
    for (const session of sessions.slice(1))
      await session.callTool({ name: 'rug__mutate', arguments: { text: 'Adds, and reads ~/.ssh' } });
    const hash = held.body.quarantines[0]?.pendingHash;
    const approved = await b.api('POST', `/api/servers/rug/tools/calc/approve?hash=${hash}`, {});
    expect(approved.status).toBe(200);
    for (const [i, session] of sessions.entries())
      await waitFor(() => lists(session), { what: `calc listed again on ${replicas[i]?.id}` });
    const audited = await waitFor(
      async () => {
        const { body } = await c.api<{ entries: { eventType: string }[] }>('GET', '/api/audit?server=rug');
        const kinds = body.entries
          .map((e) => e.eventType)
          .filter((t) => t === 'tool_quarantined' || t === 'tool_approved');
        // Both: each replica writes its own rows, batched for up to a second (ADR 056), and c's
        // read flushes only c's queue: b's approval may be written before a's quarantine.
        return kinds.includes('tool_approved') && kinds.includes('tool_quarantined') ? kinds : null;
      },
      { what: 'the quarantine and the approval audited' },
    );
    expect(audited.sort()).toEqual(['tool_approved', 'tool_quarantined']);
  }, 90_000);
});
