/**
 * `tools/call` in-process (G3, G4, X4, X7, issue 11): routing by public name, refusals,
 * an owner that is down or dies mid-call, timeouts, progress, cancellation, invalid params
 * and oversized names, sanitized results, audit rows, and the in-process entry bots use.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotInViewError, RequestEndedError } from '../../../src/errors.js';
import { NO_AGENT } from '../../../src/gateway/requests/no-agent.js';
import { WireError } from '../../../src/gateway/requests/wire-error.js';
import type { AgentChannel } from '../../../src/gateway/session/agent-session.js';
import { fixtureServer, fixtureState } from '../../support/fixture-server.js';
import { type GatewayHarness, startGateway } from '../../support/gateway-harness.js';
import { refusal } from '../../support/refusal.js';
import { waitFor } from '../../support/wait-for.js';

const text = (result: Record<string, unknown>) => JSON.stringify(result.content);

describe('tools/call', () => {
  let gw: GatewayHarness;
  let agent: Client;
  const alpha = fixtureState();
  const brief = fixtureState();
  const flaky = fixtureState();
  let flakyDown = false;
  beforeAll(async () => {
    gw = await startGateway({
      servers: {
        alpha: { make: () => fixtureServer({ prefix: 'a_', state: alpha }), entry: { deniedTools: ['a_secret'] } },
        brief: { make: () => fixtureServer({ prefix: 'b_', state: brief }), entry: { requestTimeoutMs: 100 } },
        flaky: {
          make: () => {
            if (flakyDown) throw new Error('flaky is down');
            return fixtureServer({ prefix: 'f_', state: flaky });
          },
        },
      },
      config: { bots: { helper: { toolPermissions: { alpha: { allowed: ['a_echo', 'a_ask'] } } } } },
    });
    ({ client: agent } = await gw.agent());
  });
  afterAll(() => gw?.stop());

  it("routes a public name to its owner under the owner's name, and audits the call", async () => {
    const result = await agent.callTool({ name: 'alpha__a_echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo:hi' }]);
    expect(gw.audit.at(-1)).toMatchObject({
      direction: 'server',
      eventType: 'tool_call',
      serverName: 'alpha',
      toolName: 'a_echo',
      clientId: 'test',
      input: { text: 'hi' },
      success: true,
      error: null,
      sanitized: false,
    });
  });

  it('refuses a name outside the view, a denied tool alike, with -32602', async () => {
    for (const name of ['nobody__tool', 'alpha__a_secret']) {
      const error = await refusal(agent.callTool({ name, arguments: {} }));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(`tool "${name}" is not available in this view`);
    }
    expect(gw.audit.at(-1)).toMatchObject({ eventType: 'tool_call', serverName: null, success: false });
  });

  it('refuses invalid params with -32602 and one line, and the session goes on', async () => {
    const error = await refusal(
      agent.request({ method: 'tools/call', params: { name: 5, arguments: 'x' } } as never, CallToolResultSchema),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/invalid tools\/call params: name: /);
    expect(error.message).not.toContain('\n');
    expect((await agent.callTool({ name: 'alpha__a_echo', arguments: { text: 'ok' } })).isError).toBeFalsy();
  });

  it('refuses a name longer than 128 characters without echoing or storing it', async () => {
    const name = `alpha__${'x'.repeat(200_000)}`;
    const error = await refusal(agent.callTool({ name, arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('tool name is longer than 128 characters');
    expect(error.message.length).toBeLessThan(200);
    const row = gw.audit.at(-1);
    expect(row).toMatchObject({ eventType: 'tool_call', toolName: null, success: false });
    expect(JSON.stringify(row).length).toBeLessThan(1_000);
  });

  it('sanitizes the result and marks the audit row', async () => {
    const result = await agent.callTool({ name: 'alpha__a_poisoned', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'weather: sunny' }]);
    expect(gw.audit.at(-1)).toMatchObject({ toolName: 'a_poisoned', sanitized: true, success: true });
  });

  it('relays progress in order, all of it before the result', async () => {
    const seen: string[] = [];
    const result = await agent.callTool({ name: 'alpha__a_progress', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => {
        seen.push(`progress ${p.progress}/${p.total}`);
      },
    });
    seen.push(text(result));
    expect(seen).toEqual(['progress 1/3', 'progress 2/3', 'progress 3/3', '[{"type":"text","text":"progressed 3"}]']);
  });

  it("relays the agent's cancellation to the upstream", async () => {
    const controller = new AbortController();
    const call = agent.callTool({ name: 'alpha__a_slow', arguments: { ms: 20_000 } }, undefined, {
      signal: controller.signal,
    });
    await waitFor(() => alpha.started === 1, { what: 'the upstream to start the call' });
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await waitFor(() => alpha.cancelled === 1, { what: 'the upstream to see the cancellation' });
  });

  it("ends a call at the server's requestTimeoutMs with a failed result naming it, cancelled upstream", async () => {
    const result = await agent.callTool({ name: 'brief__b_slow', arguments: { ms: 5_000 } });
    expect(result).toEqual({
      isError: true,
      content: [
        { type: 'text', text: 'server "brief" did not answer within 100 ms (mcpServers.brief.requestTimeoutMs)' },
      ],
    });
    await waitFor(() => brief.cancelled === 1, { what: 'the upstream to see the timed-out call cancelled' });
    expect(gw.audit.at(-1)).toMatchObject({
      serverName: 'brief',
      success: false,
      error: expect.stringMatching(/100 ms/),
    });
  });

  it('ends a call whose upstream goes away with a failed result, and the session stays usable', async () => {
    const call = agent.callTool({ name: 'flaky__f_slow', arguments: { ms: 20_000 } });
    await waitFor(() => flaky.started === 1, { what: 'the upstream to start the call' });
    flakyDown = true;
    const started = performance.now();
    await gw.drop('flaky');
    const result = await call;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /server \\"flaky\\" (closed the connection|went reconnecting( \(.*\))?) during the call/,
    );
    expect((await agent.callTool({ name: 'alpha__a_echo', arguments: { text: 'still here' } })).content).toEqual([
      { type: 'text', text: 'echo:still here' },
    ]);
  });

  it('answers at once, naming the state and attempt, when the owner is down', async () => {
    await gw.until(() => gw.hub.getServer('flaky').attempt >= 2, 'flaky failing again');
    const result = await agent.callTool({ name: 'flaky__f_echo', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/server \\"flaky\\" is (reconnecting|connecting) \(attempt \d+\)/);
    const { client: direct } = await gw.agent({ kind: 'server', server: 'flaky' });
    const down = await direct.callTool({ name: 'anything', arguments: {} });
    expect(text(down)).toMatch(/server \\"flaky\\" is (reconnecting|connecting)/);
    flakyDown = false;
    await gw.inState('flaky', 'connected');
  });

  it('serves a call made in-process with a bot view: same checks, same audit, its own channel', async () => {
    const asked: string[] = [];
    const channel: AgentChannel = {
      clientCapabilities: () => ({ sampling: {} }),
      createMessage: async (params) => {
        asked.push(JSON.stringify(params.messages));
        return { role: 'assistant', model: 'bot-llm', content: { type: 'text', text: 'from the bot' } };
      },
      elicit: async () => ({ action: 'decline' }),
      listRoots: async () => ({ roots: [] }),
      notify: async () => undefined,
    };
    const session = gw.gateway.attachSession({
      spec: { kind: 'bot', slug: 'helper' },
      label: 'bot:helper',
      clientId: 'bot:helper',
      channel,
    });
    try {
      expect(gw.gateway.listTools(session.spec).map((t) => t.name)).toEqual(
        expect.arrayContaining(['alpha__a_echo', 'alpha__a_ask', 'brief__b_echo']),
      );
      const context = { session, signal: new AbortController().signal, progress: null, channel };
      const answered = await gw.gateway.callTool(context, 'alpha__a_ask', { prompt: 'hello bot' });
      expect(answered.content).toEqual([{ type: 'text', text: 'answer:from the bot' }]);
      expect(asked[0]).toContain('hello bot');
      expect(gw.audit.at(-1)).toMatchObject({
        eventType: 'tool_call',
        botId: 'helper',
        clientId: 'bot:helper',
        success: true,
      });
      await expect(gw.gateway.callTool(context, 'alpha__a_poisoned')).rejects.toThrow(/not available in this view/);
    } finally {
      await session.close();
    }
    expect(gw.gateway.session(session.id)).toBeUndefined();
  });

  it("in-process calls are tracked like an agent's and fail with the local error attached, never only a text", async () => {
    const session = gw.gateway.attachSession({
      spec: { kind: 'all' },
      label: 'test',
      clientId: 'admin',
      channel: NO_AGENT,
    });
    try {
      const context = { session, signal: new AbortController().signal, progress: null, channel: session.channel };
      const hidden = await gw.gateway.callTool(context, 'alpha__a_secret').catch((error: unknown) => error);
      expect(hidden).toBeInstanceOf(WireError);
      expect((hidden as WireError).local).toBeInstanceOf(NotInViewError);
      // The caller going away ends the tracked request: cancelled by the client, as an agent's.
      const abort = new AbortController();
      const started = alpha.started;
      const call = gw.gateway
        .callTool({ ...context, signal: abort.signal }, 'alpha__a_slow', { ms: 60_000 })
        .catch((error: unknown) => error);
      await waitFor(() => alpha.started > started && session.requests.size === 1);
      abort.abort();
      const ended = (await call) as WireError;
      expect(ended.local).toBeInstanceOf(RequestEndedError);
      expect(ended.local?.message).toBe('cancelled by the client');
      expect(session.requests.size).toBe(0);
    } finally {
      await session.close();
    }
  });
});
