/**
 * Issue 11 acceptance (SPEC X8): calls to a SIGSTOPped stdio upstream fail fast. A call that
 * hears nothing for `livenessCheckAfterMs` (default 2 s) has the connection checked at
 * once (a ping with `livenessTimeoutMs`, default 2 s); the stopped server fails it, goes to
 * `reconnecting`, and its calls end with an error that says why, within 5 s with the
 * defaults; after SIGCONT the server is connected again (a fresh process) and calls work.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/upstream/process-tree.js';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('a stalled upstream', () => {
  let svc: TestService;
  let agent: Client;
  let stopped: number | null = null;
  beforeAll(async () => {
    // Default health and liveness settings: the health ping is 30 s away.
    svc = await startTestService({
      mcpServers: { gw: { command: process.execPath, args: [GATEWAY_SERVER], backoff: { baseMs: 100 } } },
    });
    await waitFor(async () => (await svc.server('gw'))?.state === 'connected', { what: 'gw connected' });
    agent = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 30_000);
  afterAll(async () => {
    if (stopped !== null && isAlive(stopped)) process.kill(stopped, 'SIGCONT');
    await agent?.close();
    await svc?.stop();
  });

  it('fails its calls within 5 s, saying why, and is connected again after SIGCONT', async () => {
    const before = await svc.server('gw');
    const pid = before?.pid as number;
    expect((await agent.callTool({ name: 'gw__echo', arguments: { text: 'alive' } })).isError).toBeFalsy();
    process.kill(pid, 'SIGSTOP');
    stopped = pid;
    const started = Date.now();
    const calls = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const result = await agent.callTool({ name: 'gw__echo', arguments: { text: `stuck ${n}` } });
        return { result, ms: Date.now() - started };
      }),
    );
    for (const { result, ms } of calls) {
      expect(ms).toBeLessThan(5_000);
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(
        /^server "gw" (went reconnecting \(liveness check timed out after 2000 ms\)|closed the connection) during the call$/,
      );
    }
    process.kill(pid, 'SIGCONT');
    stopped = null;
    const after = await waitFor(
      async () => {
        const s = await svc.server('gw');
        return s?.state === 'connected' ? s : null;
      },
      { what: 'gw connected again', timeoutMs: 15_000 },
    );
    expect(after.pid).not.toBe(pid);
    expect(text(await agent.callTool({ name: 'gw__echo', arguments: { text: 'back' } }))).toBe('echo:back');
  });

  it('does not disturb a slow call to a live server: the check is answered and the call goes on', async () => {
    const pid = (await svc.server('gw'))?.pid;
    const result = await agent.callTool({ name: 'gw__slow', arguments: { ms: 2_800 } });
    expect(text(result)).toBe('slow done');
    expect((await svc.server('gw'))?.pid).toBe(pid);
  });
});
