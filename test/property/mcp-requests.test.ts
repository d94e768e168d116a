/**
 * `/mcp` request handling as a property: random JSON-RPC (valid methods with random params,
 * wrong types, unknown methods, batches, garbage bodies, odd headers) sent to a real
 * service never crashes it, always gets an HTTP answer, and another open session keeps
 * working.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'server/discover',
  'sampling/createMessage',
  'no/such/method',
];
const params = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ name: fc.oneof(fc.constantFrom('tiny__echo', 'echo', ''), fc.string()), arguments: fc.jsonValue() }),
  fc.record({ uri: fc.oneof(fc.webUrl(), fc.string()), protocolVersion: fc.constantFrom('2025-11-25', '1999', 7) }),
);
const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 8 }),
  fc.constant(null),
  fc.double(),
  fc.jsonValue({ maxDepth: 1 }),
);
const message = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.constantFrom('2.0', '1.0', 2),
      id,
      method: fc.oneof(fc.constantFrom(...METHODS), fc.string()),
      params,
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  ),
  fc.record({ jsonrpc: fc.constant('2.0'), id, result: fc.jsonValue({ maxDepth: 2 }) }),
  fc.jsonValue({ maxDepth: 2 }),
);
const body = fc.oneof(
  message.map((m) => JSON.stringify(m)),
  fc.array(message, { maxLength: 5 }).map((batch) => JSON.stringify(batch)),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom('', '{', '[]', 'null', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":'),
);
const headers = fc.record({
  session: fc.constantFrom('fuzz', 'none', 'bogus'),
  contentType: fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', ''),
  accept: fc.constantFrom('application/json, text/event-stream', 'application/json', '*/*', ''),
  method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT'),
});

describe('/mcp under random requests (property)', () => {
  let service: TestService;
  let bystander: Client;
  let fuzzSession = '';

  beforeAll(async () => {
    service = await startTestService({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } });
    await waitFor(async () => (await service.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
    bystander = await connectHttpClient(`${service.service.url}/mcp`);
  });
  afterAll(async () => {
    await bystander?.close();
    await service?.stop();
  });

  /** A raw session of the fuzzer's own, opened with a plain initialize. */
  const openSession = async () => {
    const init = await fetch(`${service.service.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      }),
    });
    await init.body?.cancel();
    const id = init.headers.get('mcp-session-id');
    if (!id) throw new Error(`initialize answered ${init.status} without a session`);
    return id;
  };

  it('always answers, never crashes, and leaves other sessions working', async () => {
    fuzzSession = await openSession();
    await fc.assert(
      fc.asyncProperty(body, headers, async (text, h) => {
        const session = { fuzz: fuzzSession, none: undefined, bogus: 'not-a-session' }[h.session];
        const response = await fetch(`${service.service.url}/mcp`, {
          method: h.method,
          headers: {
            authorization: `Bearer ${TEST_TOKEN}`,
            ...(h.contentType ? { 'content-type': h.contentType } : {}),
            ...(h.accept ? { accept: h.accept } : {}),
            ...(session ? { 'mcp-session-id': session } : {}),
          },
          ...(h.method === 'GET' || h.method === 'DELETE' ? {} : { body: text }),
          signal: AbortSignal.timeout(10_000),
        });
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(500);
        // A stream (the session's GET, or a call's SSE answer) is not read to its end.
        await response.body?.cancel();
        if (h.method === 'DELETE' && session === fuzzSession) fuzzSession = await openSession();
        const echoed = await bystander.callTool({ name: 'tiny__echo', arguments: { text: 'still here' } });
        expect(echoed.content).toEqual([{ type: 'text', text: 'still here' }]);
      }),
      { numRuns: 100 },
    );
    expect((await fetch(`${service.service.url}/healthz`)).status).toBe(200);
  }, 60_000);
});
