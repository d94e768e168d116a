/**
 * The one perimeter (ADR 028, SPEC X1, X2, X3, X8) over real HTTP on 127.0.0.1, served as
 * the service serves it: every refusal of its table is the same answer on `/api` and on
 * `/mcp` (status, headers, and the body: the API's shape on both, or its JSON-RPC form on
 * `/mcp` where the table has one), and what was refused left nothing behind.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../../src/config/schema.js';
import type { Caller } from '../../../src/guard/caller.js';
import { createHttpHandler } from '../../../src/http/create-http-handler.js';
import { PERIMETER_ANSWERS, type PerimeterRefusal } from '../../../src/http/perimeter/admit-request.js';
import { type HttpServer, listenHttp } from '../../../src/http/serve-http.js';
import { alphaAndBeta } from '../../support/fixture-server.js';
import { testLogger } from '../../support/fixtures.js';
import { type GatewayHarness, startGateway } from '../../support/gateway-harness.js';
import { INITIALIZE_BODY } from '../../support/initialize.js';
import { TEST_TOKEN } from '../../support/test-service.js';

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: unknown };

/** A request over node:http (`Host` can be set), with the whole answer. */
function send(
  url: string,
  { method = 'POST', headers = {}, body = '' }: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A connection of its own: a refused upload's connection is closed after its answer.
    const req = request(url, {
      agent: false,
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    // A refused upload may have its connection closed under the rest of it.
    req.on('error', reject);
    req.end(body);
  });
}

/** The answer the table says `/api` gives. */
const onApi = (refused: PerimeterRefusal) => ({ status: refused.status, body: refused.api });
/** The answer the table says `/mcp` gives (`id`: the request's). */
const onMcp = (refused: PerimeterRefusal, id: number | null = null) => ({
  status: refused.status,
  body: refused.rpc ? { jsonrpc: '2.0', error: refused.rpc, id } : refused.api,
});
const seen = (answer: Answer) => ({ status: answer.status, body: answer.body });

const BOT: Caller = { kind: 'bot', slug: 'researcher', tokenId: 'b1' };
const CLIENT: Caller = { kind: 'client', tokenId: 'c1', name: 'client' };

describe('one perimeter for /api and /mcp', () => {
  let gw: GatewayHarness;
  const servers: HttpServer[] = [];

  /** A listener over the shared gateway, with `patch` over its config; resolves with its base URL. */
  const serve = async (patch: (config: AppConfig) => AppConfig = (c) => c): Promise<string> => {
    const http = await listenHttp({ host: '127.0.0.1', port: 0 });
    servers.push(http);
    const port = http.address().port;
    const handler = createHttpHandler({
      host: '127.0.0.1',
      hub: gw.hub,
      config: () => patch(gw.config()),
      bus: gw.bus,
      log: testLogger(),
      adminToken: TEST_TOKEN,
      gateway: gw.gateway,
      port: () => port,
      verifyToken: (token) => (token === 'bot-token' ? BOT : token === 'client-token' ? CLIENT : null),
    });
    http.handle(handler.listener);
    // The app answers once loaded: load it now, not in the middle of a test.
    await handler.app();
    return `http://127.0.0.1:${port}`;
  };
  let base: string;
  const admin = { authorization: `Bearer ${TEST_TOKEN}` };
  const api = (headers: Record<string, string>, body = '{}') => send(`${base}/api/servers`, { headers, body });
  const mcp = (headers: Record<string, string>, path = '/mcp') =>
    send(`${base}${path}`, { headers, body: INITIALIZE_BODY });

  beforeAll(async () => {
    gw = await startGateway({ servers: alphaAndBeta(), config: { bots: { researcher: {} } } });
    base = await serve();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await gw?.stop();
  });

  it('refuses a foreign Origin or Host with the same 403 on both, and opens no session', async () => {
    const before = gw.gateway.sessions().length;
    const port = new URL(base).port;
    for (const headers of [{ origin: 'https://evil.example' }, { host: `evil.example:${port}` }] as Record<
      string,
      string
    >[]) {
      const fromApi = await api({ ...admin, ...headers });
      const fromMcp = await mcp({ ...admin, ...headers });
      const reason = (fromApi.body as { error: { message: string } }).error.message;
      expect(reason).toMatch(/evil\.example/);
      expect(seen(fromApi)).toEqual(onApi(PERIMETER_ANSWERS.origin(reason)));
      expect(seen(fromMcp)).toEqual(onMcp(PERIMETER_ANSWERS.origin(reason)));
    }
    expect(gw.gateway.sessions().length).toBe(before);
  });

  it('refuses no token, a wrong one and two with the same 401 and challenge on both', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'missing bearer token'],
      [{ authorization: 'Bearer wrong' }, 'invalid bearer token'],
      [
        { authorization: `Bearer ${TEST_TOKEN}, Bearer ${TEST_TOKEN}` },
        'the Authorization header has 2 values; send one: Bearer <token>',
      ],
    ];
    for (const [headers, message] of cases) {
      const refused = PERIMETER_ANSWERS.unauthorized(message);
      for (const [answer, expected] of [
        [await api(headers), onApi(refused)],
        [await mcp(headers), onMcp(refused)],
      ] as const) {
        expect(seen(answer)).toEqual(expected);
        expect(answer.headers['www-authenticate']).toBe('Bearer realm="boternity"');
      }
    }
  });

  it('refuses a valid token where its kind does not go with the same 403 on both, before a session opens', async () => {
    const before = gw.gateway.sessions().length;
    expect(seen(await api({ authorization: 'Bearer client-token' }))).toEqual(
      onApi(PERIMETER_ANSWERS.tokenKind('this token is for the MCP endpoints')),
    );
    expect(seen(await mcp({ authorization: 'Bearer bot-token' }, '/mcp/servers/alpha'))).toEqual(
      onMcp(PERIMETER_ANSWERS.tokenKind('a bot token cannot open a single server endpoint; use /mcp')),
    );
    expect(seen(await mcp({ authorization: 'Bearer bot-token' }, '/mcp/bots/other'))).toEqual(
      onMcp(PERIMETER_ANSWERS.tokenKind('this token belongs to bot "researcher", not "other"')),
    );
    expect(gw.gateway.sessions().length).toBe(before);
  });

  it('counts /api and /mcp against one budget and refuses over it with the same 429 and Retry-After', async () => {
    const limited = await serve((c) => ({ ...c, limits: { ...c.limits, perClient: { requests: 2, perSeconds: 60 } } }));
    const before = gw.gateway.sessions().length;
    expect((await send(`${limited}/api/servers`, { method: 'GET', headers: admin })).status).toBe(200);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });
    // Served (400: no session), and counted.
    expect((await send(`${limited}/mcp`, { headers: admin, body: ping })).status).toBe(400);
    for (const answer of [
      await send(`${limited}/api/servers`, { method: 'GET', headers: admin }),
      await send(`${limited}/mcp`, { headers: admin, body: ping }),
    ]) {
      const seconds = Number(answer.headers['retry-after']);
      expect(seconds).toBeGreaterThanOrEqual(59);
      const refused = PERIMETER_ANSWERS.rateLimited({ scope: 'client', retryAfterSeconds: seconds });
      const onMcpPath = 'jsonrpc' in (answer.body as object);
      // On /mcp the JSON-RPC error answers the refused request by its id.
      expect(seen(answer)).toEqual(onMcpPath ? onMcp(refused, 7) : onApi(refused));
    }
    expect(gw.gateway.sessions().length).toBe(before);
  });

  it('refuses a body over the limit with the same 413 on both; no session opens, and the service goes on', async () => {
    const small = await serve((c) => ({
      ...c,
      http: { ...c.http, maxBodyBytes: 2_000 },
      gateway: { ...c.gateway, maxBodyBytes: 2_000 },
    }));
    const before = gw.gateway.sessions().length;
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5_000) } });
    const refused = PERIMETER_ANSWERS.tooLarge(2_000);
    expect(seen(await send(`${small}/api/servers`, { headers: admin, body: big }))).toEqual(onApi(refused));
    expect(seen(await send(`${small}/mcp`, { headers: admin, body: big }))).toEqual(onMcp(refused));
    expect(gw.gateway.sessions().length).toBe(before);
    expect((await send(`${small}/mcp`, { headers: admin, body: INITIALIZE_BODY })).status).toBe(200);
  });
});
