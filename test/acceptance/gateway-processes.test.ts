/**
 * The gateway over real processes (what in-process tests cannot show): two agent sessions
 * calling a sampling tool on the same upstream at once each answer exactly their own
 * request, over a real Streamable HTTP upstream and through `scope: "session"` stdio
 * children; a shared stdio upstream never hands one session's request to another; session
 * children end with their session; a `kill -9` mid-call ends the call within a second.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/upstream/process-tree.js';
import { createBarrier } from '../support/barrier.js';
import { EVERYTHING_BIN } from '../support/everything.js';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startEverythingHttp } from '../support/start-everything-http.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

/**
 * An agent whose sampling answers name it, and which records the prompts it was asked;
 * with `together`, it answers only once every agent sharing it has been asked (both calls
 * are then in flight together).
 */
async function agent(url: string, tag: string, together?: { arrive(): Promise<void> }) {
  const client = await connectHttpClient(url, { capabilities: { sampling: {} } });
  const asked: string[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]?.content;
    asked.push(content && 'text' in content ? String(content.text) : '?');
    await together?.arrive();
    return { role: 'assistant', model: 'm', content: { type: 'text', text: `answer-from-${tag}` } };
  });
  return { client, asked, tag };
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.stringify(result.content);

describe('server-to-client requests reach the session that caused them', () => {
  let http: Awaited<ReturnType<typeof startEverythingHttp>>;
  let svc: TestService;
  beforeAll(async () => {
    http = await startEverythingHttp();
    svc = await startTestService({
      mcpServers: {
        'everything-http': { type: 'http', url: http.url, healthIntervalMs: 60_000 },
        'everything-own': {
          command: process.execPath,
          args: [EVERYTHING_BIN],
          scope: 'session',
          healthIntervalMs: 60_000,
        },
        'shared-stdio': { command: process.execPath, args: [GATEWAY_SERVER], healthIntervalMs: 60_000 },
        one: {
          command: process.execPath,
          args: [GATEWAY_SERVER],
          env: { TOOL_PREFIX: 'one_' },
          healthIntervalMs: 60_000,
          backoff: { baseMs: 2_000 },
        },
      },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), { what: 'all connected' });
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await http?.stop();
  });

  it.each([
    ['Streamable HTTP, shared connection', 'everything-http'],
    ['stdio with scope "session"', 'everything-own'],
  ])('%s: each of two concurrent sessions answers its own sampling request', async (_label, server) => {
    const together = createBarrier(2);
    const a = await agent(`${svc.service.url}/mcp`, 'A', together);
    const b = await agent(`${svc.service.url}/mcp`, 'B', together);
    try {
      const tool = `${server}__trigger-sampling-request`;
      const [ra, rb] = await Promise.all([
        a.client.callTool({ name: tool, arguments: { prompt: 'from-A', maxTokens: 5 } }),
        b.client.callTool({ name: tool, arguments: { prompt: 'from-B', maxTokens: 5 } }),
      ]);
      expect(a.asked).toHaveLength(1);
      expect(b.asked).toHaveLength(1);
      expect(a.asked[0]).toContain('from-A');
      expect(b.asked[0]).toContain('from-B');
      expect(text(ra)).toContain('answer-from-A');
      expect(text(rb)).toContain('answer-from-B');
      expect(text(ra)).not.toContain('answer-from-B');
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });

  it('closes a session-scoped upstream when its session ends or idles out', async () => {
    // Sessions of the tests above are still open (a plain close() does not end a session).
    const seen = new Set(svc.service.gateway.sessions().map((s) => s.id));
    const ownPid = async (client: Client) => {
      await client.callTool({ name: 'everything-own__echo', arguments: { message: 'x' } });
      const session = svc.service.gateway.sessions().find((s) => !seen.has(s.id));
      if (!session) throw new Error('no new session');
      seen.add(session.id);
      return (await session.ownUpstreams.get('everything-own'))?.pid as number;
    };
    const ending = await agent(`${svc.service.url}/mcp`, 'A');
    const endingPid = await ownPid(ending.client);
    expect(isAlive(endingPid)).toBe(true);
    await (ending.client.transport as StreamableHTTPClientTransport).terminateSession();
    await ending.client.close();
    await waitFor(() => !isAlive(endingPid), { what: 'the ended session upstream to stop', timeoutMs: 10_000 });

    const idle = await agent(`${svc.service.url}/mcp`, 'B');
    const idlePid = await ownPid(idle.client);
    // A negative idle time makes every session idle: all end, their upstreams with them.
    expect(await svc.service.gateway.closeIdle(-1)).toBeGreaterThanOrEqual(1);
    await waitFor(() => !isAlive(idlePid), { what: 'the idle session upstream to stop', timeoutMs: 10_000 });
    await idle.client.close();
  });

  it('never hands a shared stdio upstream request to another session', async () => {
    const a = await agent(`${svc.service.url}/mcp`, 'A');
    const b = await agent(`${svc.service.url}/mcp`, 'B');
    try {
      const results = await Promise.allSettled([
        a.client.callTool({ name: 'shared-stdio__ask', arguments: { prompt: 'from-A' } }),
        b.client.callTool({ name: 'shared-stdio__ask', arguments: { prompt: 'from-B' } }),
      ]);
      expect(a.asked.every((p) => p === 'from-A')).toBe(true);
      expect(b.asked.every((p) => p === 'from-B')).toBe(true);
      for (const [i, result] of results.entries()) {
        const tag = i === 0 ? 'A' : 'B';
        const body = result.status === 'fulfilled' ? text(result.value) : String(result.reason);
        // Either its own answer, or a clear refusal that names the remedy.
        if (!body.includes(`answer:answer-from-${tag}`))
          expect(body).toMatch(/cannot tell which .* set "scope": "session"/);
      }
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });

  it('ends a call whose stdio upstream is killed (kill -9) within a second; the session stays usable', async () => {
    const agentA = await connectHttpClient(`${svc.service.url}/mcp`);
    try {
      const pid = (await svc.server('one'))?.pid as number;
      const call = agentA.callTool({ name: 'one__one_slow', arguments: { ms: 20_000 } });
      await waitFor(() => svc.service.hub.stderr('one').some((line) => line.includes('slow started')), {
        what: 'the upstream to start the call',
      });
      const killed = Date.now();
      process.kill(pid, 'SIGKILL');
      const result = await call;
      expect(Date.now() - killed).toBeLessThan(1_000);
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(
        /server \\"one\\" (closed the connection|went reconnecting( \(.*\))?) during the call/,
      );
      expect(
        (await agentA.callTool({ name: 'shared-stdio__echo', arguments: { text: 'still here' } })).content,
      ).toEqual([{ type: 'text', text: 'echo:still here' }]);
    } finally {
      await agentA.close();
    }
  });
});
