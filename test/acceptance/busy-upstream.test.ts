/**
 * Issue 17 (ADR 022): a stdio upstream busy on its CPU (as one parsing a flood of big
 * requests is) cannot answer a liveness ping queued behind its work, and is not stalled:
 * the call that waits on it is answered and the server keeps its process. A stopped one is
 * still caught (test/acceptance/stalled-upstream.test.ts). And test-tool over the admin
 * token's in-flight bound gets a 429 naming the cap.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

describe('a stdio upstream busy on its CPU', () => {
  let svc: TestService;
  let agent: Client;
  beforeAll(async () => {
    // Short checks: a call silent for 200 ms has its connection checked, a ping of 300 ms.
    svc = await startTestService({
      mcpServers: {
        busy: { command: process.execPath, args: [BUSY_SERVER], livenessCheckAfterMs: 200, livenessTimeoutMs: 300 },
      },
      // One request of a token in flight, none waiting: the second is refused at once.
      limits: { inFlight: { perToken: 1, queuePerToken: 0 } },
    });
    await waitFor(async () => (await svc.server('busy'))?.state === 'connected', { what: 'busy connected' });
    agent = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 30_000);
  afterAll(async () => {
    await agent?.close();
    await svc?.stop();
  });

  it('answers the call that waits on it, and keeps its process', async () => {
    const before = await svc.server('busy');
    const result = (await agent.callTool({ name: 'busy__spin', arguments: { ms: 1_500 } })) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'spun' }]);
    const after = await svc.server('busy');
    expect(after?.state).toBe('connected');
    expect(after?.pid).toBe(before?.pid);
  });

  it("answers test-tool over the admin token's in-flight bound with 429 and Retry-After, naming the cap", async () => {
    const call = (ms: number) =>
      fetch(`${svc.service.url}/api/servers/busy/tools/spin/call`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ arguments: { ms } }),
      });
    const first = call(1_000);
    const metrics = () =>
      fetch(`${svc.service.url}/metrics`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } }).then((r) => r.text());
    await waitFor(async () => (await metrics()).includes('boternity_upstream_requests_in_flight{server="busy"} 1'), {
      what: "the admin token's one place taken",
    });
    const over = await call(1);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('1');
    expect(await over.json()).toEqual({
      error: {
        code: 'rate_limited',
        message:
          'too many requests: this token is at its cap of 1 in flight (limits.inFlight.perToken) and it already has 0 waiting (limits.inFlight.queuePerToken); retry once some have answered',
      },
    });
    expect((await first).status).toBe(200);
  });
});
