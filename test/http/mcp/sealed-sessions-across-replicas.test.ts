/**
 * 2025-11-25 sessions across replicas (issue 22 part 3, ADR 039): two services in-process on
 * one PostgreSQL database with one cluster key, behind the plain round-robin balancer of the
 * tests (no affinity: consecutive requests alternate replicas). An SDK client opens a session
 * on one and calls on both; a forged id is refused; a DELETE ends the session everywhere.
 */
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Service, startService } from '../../../src/main.js';
import { type RoundRobinProxy, startRoundRobinProxy } from '../../support/round-robin-proxy.js';
import { serveStreamableHttp } from '../../support/serve-streamable-http.mjs';
import { createPostgresDatabase } from '../../support/test-db.js';

const TOKEN = 'sealed-sessions-admin-token';
const CLUSTER_KEY = 'test-cluster-key-0123456789abcdefghijklmnop';

let upstream: HttpServer;
let database: { url: string; drop(): Promise<void> };
const replicas: { service: Service; home: string }[] = [];
let proxy: RoundRobinProxy;

beforeAll(async () => {
  upstream = serveStreamableHttp({
    port: 0,
    newSession: () => {
      const server = new McpServer({ name: 'echoes', version: '1.0.0' });
      server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: 'text', text: `echo: ${text}` }],
      }));
      return { server: server.server };
    },
  });
  if (!upstream.listening) await once(upstream, 'listening');
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  database = await createPostgresDatabase();
  for (let i = 0; i < 2; i++) {
    const home = await mkdtemp(join(tmpdir(), 'bnity-sealed-'));
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: { up: { url } } }));
    const env = {
      ...process.env,
      BOTERNITY_ADMIN_TOKEN: TOKEN,
      BOTERNITY_DATABASE_URL: database.url,
      BOTERNITY_CLUSTER_KEY: CLUSTER_KEY,
    };
    const service = await startService({ home, config, port: 0, env, log: pino({ level: 'silent' }) });
    replicas.push({ service, home });
  }
  // Both replicas connected to the upstream before the client comes.
  for (const { service } of replicas)
    for (let tries = 0; service.hub.listServers().find((s) => s.name === 'up')?.state !== 'connected'; tries++) {
      if (tries > 200) throw new Error('upstream not connected');
      await new Promise((r) => setTimeout(r, 25));
    }
  proxy = await startRoundRobinProxy(replicas.map(({ service }) => service.url));
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  for (const { service, home } of replicas) {
    await service.stop();
    await rm(home, { recursive: true, force: true });
  }
  await database?.drop();
  upstream?.closeAllConnections();
  upstream?.close();
});

const connect = async (base: string) => {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  const client = new Client({ name: 'across-replicas', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
};

/** A raw POST of `tools/list` with `sessionId` to one replica. */
const listOn = (base: string, sessionId: string) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
  });

describe('sealed sessions across replicas', () => {
  it('serves every request of one session on whichever replica the balancer picks', async () => {
    const { client, transport } = await connect(proxy.url);
    expect(transport.sessionId?.startsWith('v1.')).toBe(true);
    const before = new Map(proxy.sent);
    for (let i = 0; i < 8; i++) {
      const result = await client.callTool({ name: 'up__echo', arguments: { text: `n${i}` } });
      expect(result.content).toEqual([{ type: 'text', text: `echo: n${i}` }]);
    }
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('up__echo');
    // Both replicas answered calls of this one session.
    for (const { service } of replicas)
      expect((proxy.sent.get(service.url) ?? 0) - (before.get(service.url) ?? 0)).toBeGreaterThan(2);
    await client.close();
  });

  it('refuses an altered id on every replica with the spec answer (404)', async () => {
    const { client, transport } = await connect(proxy.url);
    const id = transport.sessionId as string;
    const altered = `${id.slice(0, 30)}${id[30] === 'A' ? 'B' : 'A'}${id.slice(31)}`;
    for (const { service } of replicas) expect((await listOn(service.url, altered)).status).toBe(404);
    expect((await listOn(replicas[1]?.service.url as string, id)).status).toBe(200);
    await client.close();
  });

  it('ends a session on every replica with one DELETE, wherever it lands', async () => {
    const { client, transport } = await connect(replicas[0]?.service.url as string);
    const id = transport.sessionId as string;
    // Replica 1 holds it too, from a request of its own; the DELETE goes to replica 0.
    expect((await listOn(replicas[1]?.service.url as string, id)).status).toBe(200);
    await transport.terminateSession();
    // Its opener forgets it at once; the other within a second (the closed list; at once with the fleet bus).
    expect((await listOn(replicas[0]?.service.url as string, id)).status).toBe(404);
    const deadline = Date.now() + 3_000;
    let status = 200;
    while (status !== 404 && Date.now() < deadline) {
      status = (await listOn(replicas[1]?.service.url as string, id)).status;
      if (status !== 404) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(404);
    // And a replica that never held it refuses it too: a new session's id, deleted, then replayed.
    const other = await connect(replicas[1]?.service.url as string);
    const otherId = other.transport.sessionId as string;
    await other.transport.terminateSession();
    expect((await listOn(replicas[0]?.service.url as string, otherId)).status).toBe(404);
    await other.client.close();
    await client.close();
  });
});
