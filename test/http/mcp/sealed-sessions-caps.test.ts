/**
 * A 2025-11-25 session moving between replicas under the session caps (issue 22, ADR 039 and
 * 042; K3, K4, X8): a token at its cap of one session uses that session on every replica — a
 * replica that rebuilds it from its sealed id does not count it as a new one (it was refused
 * with 429 there) — and a replica's copy ending does not take the fleet's row of the session
 * while another holds it. A `DELETE` that lands on a replica which never held the session ends
 * the copies the others hold at once (the fleet bus), not only when their next request comes.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectReplica,
  REPLICA_TOKEN,
  type SealedCluster,
  startSealedCluster,
} from '../../support/sealed-replicas.js';
import { waitFor } from '../../support/wait-for.js';

let cluster: SealedCluster;
beforeAll(async () => {
  cluster = await startSealedCluster(2, { gateway: { maxSessionsPerToken: 1 } });
}, 90_000);
afterAll(async () => {
  await cluster?.stop();
});
const urlOf = (i: number) => cluster.replicas[i]?.url as string;
const serviceOf = (i: number) => {
  const service = cluster.replicas[i]?.service;
  if (!service) throw new Error(`replica ${i} is not running`);
  return service;
};

const connect = (base: string) => connectReplica(base, 'caps-across-replicas');

/** A session opened by hand (initialize, then initialized), so that nothing of its client reaches the replica after. */
const openRaw = async (base: string) => {
  const headers = {
    authorization: `Bearer ${REPLICA_TOKEN}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const opened = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
    }),
  });
  expect(opened.status).toBe(200);
  await opened.text();
  const id = opened.headers.get('mcp-session-id') as string;
  const initialized = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return id;
};

const post = (base: string, sessionId: string, method = 'POST') =>
  fetch(`${base}/mcp`, {
    method,
    headers: {
      authorization: `Bearer ${REPLICA_TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }) } : {}),
  });

const fleetRows = async (sessionId: string) => {
  const sql = postgres(cluster.databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    return await sql<{ holder: string }[]>`select holder from fleet_sessions where session_id = ${sessionId}`;
  } finally {
    await sql.end();
  }
};

describe('sealed sessions across replicas, under the session caps', () => {
  it("serves a token's one allowed session on every replica, and keeps its row while a replica holds it", async () => {
    const { client, transport } = await connect(urlOf(0));
    const id = transport.sessionId as string;
    // Replica 1 rebuilds it: the same session, not a second one over the cap of one.
    const onOther = await post(urlOf(1), id);
    expect(onOther.status).toBe(200);
    expect(serviceOf(1).gateway.session(id)).toBeDefined();
    // Nothing was closed to make room: the opener's copy still answers.
    expect(serviceOf(0).gateway.session(id)).toBeDefined();
    const result = await client.callTool({ name: 'up__echo', arguments: { text: 'still here' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: still here' }]);
    // Replica 1's copy ends (as an idle copy would): the row stays, the opener holds it.
    await waitFor(async () => ((await fleetRows(id)).length === 1 ? true : null), { what: 'the session row' });
    const copy = serviceOf(1).gateway.session(id);
    await copy?.close();
    await waitFor(() => (serviceOf(1).gateway.session(id) ? null : true), { what: "replica 1's copy closed" });
    await waitFor(async () => ((await fleetRows(id)).length === 1 ? true : null), {
      what: 'the row of a session replica 0 still holds',
    });
    // Still the token's one session: a second is refused nowhere but made room for (the oldest idle goes).
    expect((await post(urlOf(1), id)).status).toBe(200);
    await client.close();
  });

  it('ends the copies other replicas hold at once when the DELETE lands on one that never held the session', async () => {
    const id = await openRaw(urlOf(0));
    expect(serviceOf(0).gateway.session(id)).toBeDefined();
    expect(serviceOf(1).gateway.session(id)).toBeUndefined();
    const deleted = await post(urlOf(1), id, 'DELETE');
    expect(deleted.status).toBe(200);
    const at = Date.now();
    // No request reaches replica 0: only the fleet bus can tell it.
    await waitFor(() => (serviceOf(0).gateway.session(id) ? null : true), {
      what: "replica 0's copy ended",
      timeoutMs: 5_000,
    });
    expect(Date.now() - at).toBeLessThan(2_000);
    expect((await post(urlOf(0), id)).status).toBe(404);
  });
});
