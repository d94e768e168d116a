/**
 * 2025-11-25 sessions across replicas (issue 22 parts 3–4, ADR 039): services on one
 * PostgreSQL database with one cluster key, behind the plain round-robin balancer of the tests
 * (no affinity: consecutive requests alternate replicas). An SDK client opens a session on one
 * and calls on all; a forged id is refused; a DELETE ends the session everywhere; replicas
 * restarted one at a time while a client keeps calling lose no call and no session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectReplica,
  REPLICA_TOKEN,
  type SealedCluster,
  startSealedCluster,
} from '../../support/sealed-replicas.js';

let cluster: SealedCluster;
beforeAll(async () => {
  cluster = await startSealedCluster(2);
}, 90_000);
afterAll(async () => {
  await cluster?.stop();
});
const urlOf = (i: number) => cluster.replicas[i]?.url as string;

const connect = (base: string) => connectReplica(base);

/** A raw POST of `tools/list` with `sessionId` to one replica. */
const listOn = (base: string, sessionId: string) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${REPLICA_TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
  });

describe('sealed sessions across replicas', () => {
  it('serves every request of one session on whichever replica the balancer picks', async () => {
    const { client, transport } = await connect(cluster.proxy.url);
    expect(transport.sessionId?.startsWith('v1.')).toBe(true);
    const before = new Map(cluster.proxy.sent);
    for (let i = 0; i < 8; i++) {
      const result = await client.callTool({ name: 'up__echo', arguments: { text: `n${i}` } });
      expect(result.content).toEqual([{ type: 'text', text: `echo: n${i}` }]);
    }
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('up__echo');
    // Both replicas answered calls of this one session.
    for (const { url } of cluster.replicas)
      expect((cluster.proxy.sent.get(url) ?? 0) - (before.get(url) ?? 0)).toBeGreaterThan(2);
    await client.close();
  });

  it('refuses an altered id on every replica with the spec answer (404)', async () => {
    const { client, transport } = await connect(cluster.proxy.url);
    const id = transport.sessionId as string;
    const altered = `${id.slice(0, 30)}${id[30] === 'A' ? 'B' : 'A'}${id.slice(31)}`;
    for (const { url } of cluster.replicas) expect((await listOn(url, altered)).status).toBe(404);
    expect((await listOn(urlOf(1), id)).status).toBe(200);
    await client.close();
  });

  it('ends a session on every replica with one DELETE, wherever it lands', async () => {
    const { transport } = await connect(urlOf(0));
    const id = transport.sessionId as string;
    // Replica 1 holds it too, from a request of its own; the DELETE goes to replica 0.
    expect((await listOn(urlOf(1), id)).status).toBe(200);
    await transport.terminateSession();
    const deleted = Date.now();
    // Its opener forgets it at once; the other as soon as the fleet bus tells it.
    expect((await listOn(urlOf(0), id)).status).toBe(404);
    const deadline = Date.now() + 3_000;
    let status = 200;
    while (status !== 404 && Date.now() < deadline) {
      status = (await listOn(urlOf(1), id)).status;
      if (status !== 404) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(404);
    // Well before the closed list's once-a-second lookup could have told it (its last was just before the DELETE).
    expect(Date.now() - deleted).toBeLessThan(700);
    // And a replica that never held it refuses it too: a new session's id, deleted, then replayed.
    const other = await connect(urlOf(1));
    const otherId = other.transport.sessionId as string;
    await other.transport.terminateSession();
    expect((await listOn(urlOf(0), otherId)).status).toBe(404);
    await other.client.close();
  });

  it('answers every call of a session while each replica is restarted in turn', async () => {
    const { client, transport } = await connect(cluster.proxy.url);
    const id = transport.sessionId;
    let calls = 0;
    const failures: string[] = [];
    let restarting = true;
    const caller = (async () => {
      while (restarting) {
        const n = calls++;
        try {
          const result = await client.callTool({ name: 'up__echo', arguments: { text: `r${n}` } });
          if (JSON.stringify(result.content) !== JSON.stringify([{ type: 'text', text: `echo: r${n}` }]))
            failures.push(`call ${n}: ${JSON.stringify(result.content)}`);
        } catch (error) {
          failures.push(`call ${n}: ${(error as Error).message}`);
        }
      }
    })();
    for (let i = 0; i < cluster.replicas.length; i++) {
      const before = calls;
      await cluster.restart(i);
      // Calls went on while it was down and came back.
      while (calls < before + 10) await new Promise((r) => setTimeout(r, 10));
    }
    restarting = false;
    await caller;
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(20);
    // The same session throughout.
    expect(transport.sessionId).toBe(id);
    await client.close();
  });
});
