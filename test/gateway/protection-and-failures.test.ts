/**
 * Issue 3 acceptance: the MCP endpoints refuse foreign Origins and Hosts (403) and missing
 * or wrong tokens (401); an upstream killed mid-call ends the call with a clear error
 * within a second and the session keeps working; a down upstream fails at once; an
 * agent's cancellation reaches the upstream.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { postInitialize } from '../support/initialize.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

/** The status of a raw initialize POST. */
const post = async (url: string, headers: Record<string, string>) => (await postInitialize(url, headers)).status;

const fixture = (prefix: string) => ({
  command: process.execPath,
  args: [GATEWAY_SERVER],
  env: { TOOL_PREFIX: prefix },
  healthIntervalMs: 60_000,
  backoff: { baseMs: 2_000 },
});

describe('gateway protection and failures', () => {
  let svc: TestService;
  let agent: Client;
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        one: fixture('one_'),
        two: fixture('two_'),
        brief: { ...fixture('brief_'), requestTimeoutMs: 300 },
        down: { url: `http://127.0.0.1:${await freePort()}/mcp` },
      },
    });
    await waitFor(async () => (await svc.servers()).filter((s) => s.state === 'connected').length === 3, {
      what: 'three connected',
    });
    agent = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 30_000);
  afterAll(async () => {
    await agent?.close();
    await svc?.stop();
  });

  it('answers 403 to a foreign Origin or Host and 401 without the right token', async () => {
    const url = `${svc.service.url}/mcp`;
    const port = new URL(url).port;
    const auth = { authorization: `Bearer ${TEST_TOKEN}` };
    expect(await post(url, { ...auth, origin: 'https://evil.example' })).toBe(403);
    expect(await post(url, { ...auth, host: `evil.example:${port}` })).toBe(403);
    expect(await post(url, { ...auth, host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(200);
    expect(await post(url, {})).toBe(401);
    expect(await post(url, { authorization: 'Bearer wrong' })).toBe(401);
    expect(await post(`${url}/servers/one`, { ...auth, origin: 'null' })).toBe(403);
    expect(await post(`${svc.service.url}/api/servers`, { ...auth, host: 'rebound.example' })).toBe(403);
  });

  it('leaves no session behind when the SDK refuses an initialize (406)', async () => {
    const before = svc.service.gateway.sessions().length;
    const refused = await postInitialize(`${svc.service.url}/mcp`, {
      authorization: `Bearer ${TEST_TOKEN}`,
      accept: 'text/html',
    });
    expect(refused.status).toBe(406);
    expect(svc.service.gateway.sessions().length).toBe(before);
  });

  it('ends a call whose upstream is killed within a second, and the session stays usable', async () => {
    const pid = (await svc.server('one'))?.pid as number;
    const started = Date.now();
    const call = agent.callTool({ name: 'one__one_slow', arguments: { ms: 20_000 } });
    await new Promise((r) => setTimeout(r, 200));
    process.kill(pid, 'SIGKILL');
    const result = await call;
    const elapsed = Date.now() - started - 200;
    expect(elapsed).toBeLessThan(1_000);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(
      /server \\"one\\" (closed the connection|went reconnecting) during the call/,
    );
    expect((await agent.callTool({ name: 'two__two_echo', arguments: { text: 'still here' } })).content).toEqual([
      { type: 'text', text: 'echo:still here' },
    ]);
  });

  it('fails at once, naming the server, its state and attempt, when the owner is not connected', async () => {
    await waitFor(async () => (await svc.server('one'))?.state !== 'connected', { what: 'one not connected' });
    const status = await svc.server('one');
    expect(status?.state).not.toBe('connected');
    // The tool is no longer listed; a call by name still gets a clear, immediate answer.
    const started = Date.now();
    const result = await agent.callTool({ name: 'one__one_echo', arguments: { text: 'x' } });
    expect(Date.now() - started).toBeLessThan(500);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/server \\"one\\" is (reconnecting|connecting) \(attempt \d+\)/);
    const direct = await connectHttpClient(`${svc.service.url}/mcp/servers/down`);
    try {
      const down = await direct.callTool({ name: 'anything', arguments: {} });
      expect(down.isError).toBe(true);
      expect(JSON.stringify(down.content)).toMatch(/server \\"down\\" is (reconnecting|connecting)/);
    } finally {
      await direct.close();
    }
    // A name that belongs to no server in the view is refused as such.
    await expect(agent.callTool({ name: 'nobody__tool', arguments: {} })).rejects.toThrow(/not available in this view/);
    await waitFor(async () => (await svc.server('one'))?.state === 'connected', {
      what: 'one back',
      timeoutMs: 15_000,
    });
  });

  it("ends a call at the server's requestTimeoutMs with a failed result, and cancels it upstream", async () => {
    const started = Date.now();
    const result = await agent.callTool({ name: 'brief__brief_slow', arguments: { ms: 5_000 } });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'server "brief" did not answer within 300 ms' }],
    });
    await waitFor(
      async () => {
        const r = await agent.callTool({ name: 'brief__brief_cancelled_count', arguments: {} });
        return JSON.stringify(r.content).includes('"1"');
      },
      { what: 'the upstream to see the timed-out call cancelled' },
    );
  });

  it("relays the agent's cancellation to the upstream", async () => {
    const controller = new AbortController();
    const call = agent.callTool({ name: 'two__two_slow', arguments: { ms: 20_000 } }, undefined, {
      signal: controller.signal,
    });
    await new Promise((r) => setTimeout(r, 200));
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await waitFor(
      async () => {
        const r = await agent.callTool({ name: 'two__two_cancelled_count', arguments: {} });
        return JSON.stringify(r.content).includes('"1"');
      },
      { what: 'the upstream to see the cancellation' },
    );
  });
});
