/**
 * Tool-call time limits (issue 24): per tool, per server, the gateway's default, each named
 * with where it is set in the one-line error; an upstream's progress restarts the limit
 * when `resetOnProgress` (asked of the upstream even when the agent asked for no progress),
 * and does not when it is off; however much progress comes, a call ends at `maxTotalMs`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type GatewayHarness, type HarnessServer, startGateway } from '../../support/gateway-harness.js';
import { waitFor } from '../../support/wait-for.js';

/** An upstream whose tools wait (`wait`, `quick`) or report progress every `every` ms, `times` times (`tick`). */
function timedServer(entry: Record<string, unknown>, label = ''): HarnessServer {
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
            if (extra.signal.aborted) {
              cancelledTicks.push(label);
              break;
            }
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

/** The `tick` calls that heard their cancellation (by server): the upstream is told when a limit ends a call. */
const cancelledTicks: string[] = [];

type Result = { content: { text: string }[]; isError?: boolean };

describe('tool-call time limits', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway({
      servers: {
        s: timedServer({ timeouts: { callMs: 400, perTool: { quick: 100 } } }),
        still: timedServer({ timeouts: { callMs: 400, resetOnProgress: false } }),
        plain: timedServer({}, 'plain'),
        capped: timedServer({ timeouts: { callMs: 200, maxTotalMs: 600 }, maxConcurrentRequests: 1 }, 'capped'),
      },
      config: { timeouts: { callMs: 300, maxTotalMs: 1500 } },
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

  it('progress cannot hold a call for ever: it ends at maxTotalMs naming it, the upstream is told, the place is freed', async () => {
    const began = performance.now();
    expect(await call('capped__tick', { every: 100, times: 100 })).toEqual({
      content: [
        {
          type: 'text',
          text: 'server "capped" did not answer within 600 ms in all, though it sent progress (mcpServers.capped.timeouts.maxTotalMs)',
        },
      ],
      isError: true,
    });
    expect(performance.now() - began).toBeLessThan(5_000);
    await waitFor(() => cancelledTicks.includes('capped'), { what: 'the upstream to hear the cancellation' });
    // Its one in-flight place (maxConcurrentRequests: 1) is free again.
    expect(await call('capped__quick', { ms: 1 })).toEqual({ content: [{ type: 'text', text: 'waited' }] });
  });

  it("with the agent's own progress token too, the gateway's timeouts.maxTotalMs ends it", async () => {
    const { client } = await gw.agent();
    let progress = 0;
    const result = await client.callTool({ name: 'plain__tick', arguments: { every: 100, times: 100 } }, undefined, {
      onprogress: () => {
        progress += 1;
      },
    });
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'server "plain" did not answer within 1500 ms in all, though it sent progress (timeouts.maxTotalMs)',
        },
      ],
      isError: true,
    });
    expect(progress).toBeGreaterThan(5);
  });
});
