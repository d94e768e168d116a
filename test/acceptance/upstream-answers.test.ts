/**
 * Issue 17 items 7, 14 and 15 as an agent and an operator see them, through the real
 * service: an answer over `maxAnswerBytes` is a failed tool call naming the bound (the
 * upstream's download cut, its connection kept); a call that ends (timeout, the agent's
 * cancellation, the agent ending its session) aborts the upstream's HTTP request at once; a stdio
 * server whose line is over the bound shows the bound as its `lastError`; a server stuck
 * connecting says why, quoting what it printed.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnswerServer, startAnswerServer } from '../support/answer-server.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const LIMIT = 64 * 1024;
const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('answers from upstreams, and why they fail', () => {
  let svc: TestService;
  let upstream: AnswerServer;
  let agent: Client;
  beforeAll(async () => {
    upstream = await startAnswerServer('stream');
    svc = await startTestService({
      mcpServers: {
        remote: { type: 'http', url: upstream.url, maxAnswerBytes: LIMIT },
        quick: { type: 'http', url: upstream.url, requestTimeoutMs: 1_000 },
        // No retry within the test: its lastError stays to be read.
        tiny: { command: process.execPath, args: [TINY_SERVER], maxAnswerBytes: LIMIT, backoff: { baseMs: 600_000 } },
        stuck: {
          command: process.execPath,
          args: ['-e', 'console.error("waiting for a token"); setInterval(() => {}, 1000)'],
          // Long enough for the child to have printed, on a loaded machine.
          connectTimeoutMs: 3_000,
          backoff: { baseMs: 600_000 },
        },
      },
    });
    await waitFor(async () => (await svc.server('remote'))?.state === 'connected', { what: 'remote connected' });
    await waitFor(async () => (await svc.server('quick'))?.state === 'connected', { what: 'quick connected' });
    await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
    agent = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 30_000);
  afterAll(async () => {
    await agent?.close();
    await svc?.stop();
    await upstream?.stop();
  });

  /** The upstream's latest tools/call response: how long after `since` it closed, and whether cut. */
  const lastCallClosed = async (since: number) => {
    const last = await waitFor(() => upstream.calls.at(-1), { what: 'the call upstream' });
    const closed = await last.closed;
    return { cut: closed.cut, ms: closed.at - since };
  };

  it('fails an answer over maxAnswerBytes as a tool error naming the bound, and keeps the server', async () => {
    const result = await agent.callTool({ name: 'remote__big', arguments: { bytes: 16 * 1024 * 1024 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(`server "remote" answered over ${LIMIT} bytes (maxAnswerBytes): the answer was not read`);
    expect((await lastCallClosed(0)).cut).toBe(true);
    expect(text(await agent.callTool({ name: 'remote__echo', arguments: { text: 'ok' } }))).toBe('ok');
    expect((await svc.server('remote'))?.state).toBe('connected');
  });

  it('aborts the upstream request of a call that timed out, when the agent hears of it', async () => {
    const result = await agent.callTool({ name: 'quick__hang', arguments: {} });
    const answeredAt = Date.now();
    expect(text(result)).toBe('server "quick" did not answer within 1000 ms (mcpServers.quick.requestTimeoutMs)');
    const closed = await lastCallClosed(answeredAt);
    expect(closed.cut).toBe(true);
    expect(closed.ms).toBeLessThan(1_000);
  });

  // A dropped connection alone is not the end of a call (Streamable HTTP lets the agent
  // resume it): an agent that leaves ends its session, and the session's calls end with it.
  it('aborts the upstream request of a call the agent cancelled, or whose agent ended its session', async () => {
    for (const end of ['cancel', 'leave'] as const) {
      const calls = upstream.calls.length;
      const leaving = end === 'leave' ? await connectHttpClient(`${svc.service.url}/mcp`) : agent;
      const controller = new AbortController();
      const call = leaving
        .callTool({ name: 'remote__hang', arguments: {} }, undefined, { signal: controller.signal, timeout: 30_000 })
        .catch(() => undefined);
      await waitFor(() => upstream.calls.length > calls, { what: 'the call upstream' });
      const endedAt = Date.now();
      if (end === 'cancel') controller.abort();
      else await (leaving.transport as StreamableHTTPClientTransport).terminateSession();
      await call;
      const closed = await lastCallClosed(endedAt);
      expect(closed.cut).toBe(true);
      expect(closed.ms, end).toBeLessThan(900);
      if (end === 'leave') await leaving.close();
    }
  });

  it('names the bound, as the call and as lastError, when a stdio line is over it', async () => {
    const result = await agent.callTool({ name: 'tiny__echo', arguments: { text: 'x'.repeat(200_000) } });
    const expected = `server "tiny" sent a message over ${LIMIT} bytes (maxAnswerBytes): it was not read, and the connection was closed`;
    expect(text(result)).toBe(expected);
    const status = await waitFor(
      async () => {
        const s = await svc.server('tiny');
        return s?.state === 'reconnecting' ? s : null;
      },
      { what: 'tiny reconnecting' },
    );
    expect(status.lastError).toBe(expected);
  });

  it('says why a server is stuck connecting, quoting what it printed', async () => {
    const status = await waitFor(
      async () => {
        const s = await svc.server('stuck');
        return s?.state === 'reconnecting' ? s : null;
      },
      { what: 'stuck given up on' },
    );
    expect(status.lastError).toBe('connect timed out after 3000 ms; stderr: waiting for a token');
  });
});
