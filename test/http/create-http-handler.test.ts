/**
 * The Streamable HTTP endpoints over real HTTP on 127.0.0.1, with the gateway in-process
 * behind them (G1, G3, X1, X2), served as the service serves them (the MCP endpoints on
 * node:http beside the Hono app, ADR 006): sessions by `Mcp-Session-Id`, bound to their
 * endpoint and token, ended by DELETE; the token decides the view; Host, Origin and tokens
 * checked.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { AgentSession } from '../../src/gateway/session/agent-session.js';
import { type AppLoading, createHttpHandler } from '../../src/http/create-http-handler.js';
import { SESSION_NOT_FOUND } from '../../src/http/mcp/check-mcp-session.js';
import { type HttpServer, listenHttp } from '../../src/http/serve-http.js';
import { alphaAndBeta } from '../support/fixture-server.js';
import { testLogger } from '../support/fixtures.js';
import { type GatewayHarness, startGateway } from '../support/gateway-harness.js';
import { postInitialize } from '../support/initialize.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { TEST_TOKEN } from '../support/test-service.js';

const admin = { authorization: `Bearer ${TEST_TOKEN}` };

describe('/mcp over HTTP', () => {
  let gw: GatewayHarness;
  let http: HttpServer;
  let base: string;
  /** The listener's deps over the shared gateway; only the admin token is accepted. */
  const handlerDeps = () => ({
    host: '127.0.0.1',
    hub: gw.hub,
    config: gw.config,
    bus: gw.bus,
    log: testLogger(),
    adminToken: TEST_TOKEN,
    gateway: gw.gateway,
    verifyToken: (): null => null,
  });
  beforeAll(async () => {
    gw = await startGateway({
      servers: alphaAndBeta(),
      config: { bots: { researcher: { removedServers: ['beta'] } } },
    });
    http = await listenHttp({ host: '127.0.0.1', port: 0 });
    const listening = { port: http.address().port };
    const handler = createHttpHandler({
      ...handlerDeps(),
      port: () => listening.port,
      verifyToken: (token) =>
        token === 'researcher-token' ? { kind: 'bot', slug: 'researcher', tokenId: 't1' } : null,
    });
    http.handle(handler.listener);
    base = `http://127.0.0.1:${listening.port}`;
  });
  afterAll(async () => {
    await http?.close();
    await gw?.stop();
  });

  it('serves a session whose Mcp-Session-Id is the gateway session, until DELETE ends it', async () => {
    const client: Client = await connectHttpClient(`${base}/mcp`);
    const transport = client.transport as StreamableHTTPClientTransport;
    const id = transport.sessionId as string;
    expect(gw.gateway.session(id)?.label).toBe('/mcp');
    expect(gw.gateway.session(id)?.clientId).toBe('admin');
    expect((await client.callTool({ name: 'beta__b_echo', arguments: { text: 'hi' } })).content).toEqual([
      { type: 'text', text: 'echo:hi' },
    ]);
    await transport.terminateSession();
    await client.close();
    expect(gw.gateway.session(id)).toBeUndefined();
  });

  it('keeps the transport on the HTTP side: the gateway hands none back, and a session it ends is not found', async () => {
    // The session record of the gateway has no transport in its type or in its value (ADR 028).
    expectTypeOf<AgentSession>().not.toHaveProperty('transport');
    const client = await connectHttpClient(`${base}/mcp`);
    const id = (client.transport as StreamableHTTPClientTransport).sessionId as string;
    const session = gw.gateway.session(id);
    expect(session).toBeDefined();
    expect(Object.values(session ?? {}).some((value) => value?.constructor?.name === 'McpHttpTransport')).toBe(false);
    // The gateway ends it (idle), and the endpoint forgets it with its transport.
    expect(await gw.gateway.closeIdle(-1)).toBeGreaterThanOrEqual(1);
    const late = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        ...admin,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(late.status).toBe(404);
    expect(await late.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: SESSION_NOT_FOUND.code, message: 'Session not found' },
      id: null,
    });
    await client.close();
  });

  it('binds a session to its endpoint and token, and asks for an initialize first', async () => {
    const client = await connectHttpClient(`${base}/mcp`);
    const id = (client.transport as StreamableHTTPClientTransport).sessionId as string;
    const post = (path: string, headers: Record<string, string>) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': id,
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
    expect((await post('/mcp/servers/alpha', admin)).status).toBe(404);
    expect((await post('/mcp', { authorization: 'Bearer researcher-token' })).status).toBe(404);
    const fresh = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(fresh.status).toBe(400);
    expect(JSON.stringify(await fresh.json())).toContain('start a session with an initialize request');
    await client.close();
  });

  it("gives a bot token its bot's view on /mcp, its own bot endpoint, and nothing else", async () => {
    const bot = await connectHttpClient(`${base}/mcp`, {}, 'researcher-token');
    const names = (await bot.listTools()).tools.map((t) => t.name);
    expect(names).toContain('alpha__a_echo');
    expect(names.filter((n) => n.startsWith('beta__'))).toEqual([]);
    await bot.close();
    const initialize = (path: string) => postInitialize(`${base}${path}`, { authorization: 'Bearer researcher-token' });
    const single = await initialize('/mcp/servers/beta');
    expect(single.status).toBe(403);
    expect(JSON.parse(single.body)).toEqual({
      error: { code: 'forbidden', message: expect.stringMatching(/single server endpoint/) },
    });
    expect((await initialize('/mcp/bots/other')).status).toBe(403);
    expect((await initialize('/mcp/bots/researcher')).status).toBe(200);
    expect((await postInitialize(`${base}/mcp/bots/nobody`, admin)).status).toBe(404);
    // The control API is for the admin token: a valid bot token is told so.
    expect((await fetch(`${base}/api/servers`, { headers: { authorization: 'Bearer researcher-token' } })).status).toBe(
      403,
    );
  });

  it('answers 403 to a foreign Origin or Host and 401 without the right token', async () => {
    const url = `${base}/mcp`;
    const port = new URL(url).port;
    const status = async (headers: Record<string, string>, path = url) => (await postInitialize(path, headers)).status;
    expect(await status({ ...admin, origin: 'https://evil.example' })).toBe(403);
    expect(await status({ ...admin, host: `evil.example:${port}` })).toBe(403);
    expect(await status({ ...admin, host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(200);
    expect(await status({})).toBe(401);
    expect(await status({ authorization: 'Bearer wrong' })).toBe(401);
    expect(await status({ ...admin, origin: 'null' }, `${url}/servers/alpha`)).toBe(403);
  });

  it('leaves no session behind when the SDK refuses an initialize (406)', async () => {
    const before = gw.gateway.sessions().length;
    const refused = await postInitialize(`${base}/mcp`, { ...admin, accept: 'text/html' });
    expect(refused.status).toBe(406);
    expect(gw.gateway.sessions().length).toBe(before);
  });

  /** A second listener over the same gateway whose app is loaded by `load` (never unasked). */
  const serveEarly = async (load: AppLoading['load']) => {
    const early = await listenHttp({ host: '127.0.0.1', port: 0 });
    const handler = createHttpHandler(handlerDeps(), { ...(load ? { load } : {}), prefetchMs: 60_000 });
    early.handle(handler.listener);
    return { early, handler };
  };

  it('serves /mcp while the app is still loading; a request for the app waits for it, then is answered', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let loads = 0;
    const { early, handler } = await serveEarly(async () => {
      loads++;
      await held;
      return import('../../src/http/listen-app.js');
    });
    try {
      // Not loaded before it is asked for.
      expect(loads).toBe(0);
      const api = fetch(`${early.url}/api/servers`, { headers: admin });
      const health = fetch(`${early.url}/healthz`);
      const client = await connectHttpClient(`${early.url}/mcp`);
      expect((await client.callTool({ name: 'beta__b_echo', arguments: { text: 'early' } })).content).toEqual([
        { type: 'text', text: 'echo:early' },
      ]);
      await client.close();
      expect(loads).toBe(1);
      release();
      expect((await api).status).toBe(200);
      expect((await health).status).toBe(200);
      expect(loads).toBe(1);
    } finally {
      handler.stop();
      await early.close();
    }
  });

  it('answers 500 with a one-line error when the app fails to load; /mcp goes on', async () => {
    const { early, handler } = await serveEarly(() => Promise.reject(new Error('chunk missing')));
    try {
      const failed = await fetch(`${early.url}/api/servers`, { headers: admin });
      expect(failed.status).toBe(500);
      expect(await failed.json()).toEqual({ error: { code: 'internal', message: 'internal error' } });
      expect((await postInitialize(`${early.url}/mcp`, admin)).status).toBe(200);
    } finally {
      handler.stop();
      await early.close();
    }
  });
});
