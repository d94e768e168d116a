/**
 * Tool-call time limits (issue 24): per tool, per server, the gateway's default, each named
 * with where it is set in the one-line error; an upstream's progress restarts the limit
 * when `resetOnProgress` (asked of the upstream even when the agent asked for no progress),
 * and does not when it is off.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type GatewayHarness, type HarnessServer, startGateway } from '../../support/gateway-harness.js';

/** An upstream whose tools wait (`wait`, `quick`) or report progress every `every` ms, `times` times (`tick`). */
function timedServer(entry: Record<string, unknown>): HarnessServer {
  return {
    entry,
    make: () => {
      const server = new McpServer({ name: 'timed', version: '1.0.0' });
      const wait = async ({ ms }: { ms: number }, extra: { signal: AbortSignal }) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          extra.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        return { content: [{ type: 'text' as const, text: 'waited' }] };
      };
      server.registerTool('wait', { inputSchema: { ms: z.number() } }, wait);
      server.registerTool('quick', { inputSchema: { ms: z.number() } }, wait);
      server.registerTool(
        'tick',
        { inputSchema: { every: z.number(), times: z.number() } },
        async ({ every, times }, extra) => {
          const token = extra._meta?.progressToken;
          for (let step = 1; step <= times; step += 1) {
            await new Promise((resolve) => setTimeout(resolve, every));
            if (extra.signal.aborted) break;
            if (token !== undefined)
              await extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, progress: step },
              });
          }
          return { content: [{ type: 'text' as const, text: token === undefined ? 'ticked unasked' : 'ticked' }] };
        },
      );
      return server;
    },
  };
}

type Result = { content: { text: string }[]; isError?: boolean };

describe('tool-call time limits', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway({
      servers: {
        s: timedServer({ timeouts: { callMs: 400, perTool: { quick: 100 } } }),
        still: timedServer({ timeouts: { callMs: 400, resetOnProgress: false } }),
        plain: timedServer({}),
      },
      config: { timeouts: { callMs: 300 } },
    });
  });
  afterAll(() => gw.stop());

  const call = async (name: string, args: Record<string, unknown>) =>
    (await (await gw.agent()).client.callTool({ name, arguments: args })) as Result;

  it.each([
    ['s__quick', 'server "s" did not answer within 100 ms (mcpServers.s.timeouts.perTool.quick)'],
    ['s__wait', 'server "s" did not answer within 400 ms (mcpServers.s.timeouts.callMs)'],
    ['plain__wait', 'server "plain" did not answer within 300 ms (timeouts.callMs)'],
  ])('%s fails naming its limit and where it is set', async (tool, text) => {
    expect(await call(tool, { ms: 30_000 })).toEqual({ content: [{ type: 'text', text }], isError: true });
  });

  it('progress restarts the limit: 8 × 100 ms of progress pass a 400 ms limit', async () => {
    // The agent asked for no progress: boternity asked the upstream for it all the same.
    expect(await call('s__tick', { every: 100, times: 8 })).toEqual({ content: [{ type: 'text', text: 'ticked' }] });
  });

  it('with resetOnProgress off, progress does not restart it', async () => {
    expect(await call('still__tick', { every: 100, times: 8 })).toEqual({
      content: [
        { type: 'text', text: 'server "still" did not answer within 400 ms (mcpServers.still.timeouts.callMs)' },
      ],
      isError: true,
    });
  });

  it('a call within its limit answers', async () => {
    expect(await call('s__quick', { ms: 1 })).toEqual({ content: [{ type: 'text', text: 'waited' }] });
  });
});
