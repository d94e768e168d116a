/**
 * Requests with bad params on a session (SPEC G1): whatever the request kind, the agent gets
 * -32602 and one line naming the method and the field, not the SDK's -32603 with every zod
 * issue as JSON; and the session goes on.
 */
import { type McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { alphaAndBeta } from '../../support/fixture-server.js';
import { useGateway } from '../../support/gateway-harness.js';
import { refusal } from '../../support/refusal.js';

describe('request params', () => {
  const ready = useGateway({ servers: alphaAndBeta() });
  const send = (method: string, params: unknown): Promise<McpError> =>
    refusal(ready.agent.request({ method, params } as never, ResultSchema));

  it('refuses bad params of every request kind with -32602 and one line naming the field', async () => {
    const cases: [string, unknown, string][] = [
      ['tools/list', { cursor: 5 }, 'cursor'],
      ['resources/list', { cursor: {} }, 'cursor'],
      ['resources/templates/list', { cursor: [] }, 'cursor'],
      ['resources/read', { uri: 5 }, 'uri'],
      ['resources/subscribe', {}, 'uri'],
      ['resources/unsubscribe', { uri: null }, 'uri'],
      ['prompts/list', { cursor: 1 }, 'cursor'],
      ['prompts/get', { name: 'alpha__a_greet', arguments: 'x' }, 'arguments'],
      ['logging/setLevel', { level: 'loud' }, 'level'],
      ['tools/call', { name: 5 }, 'name'],
    ];
    for (const [method, params, field] of cases) {
      const error = await send(method, params);
      expect({ method, code: error.code }).toEqual({ method, code: -32602 });
      expect(error.message).toMatch(new RegExp(`^MCP error -32602: invalid ${method} params: ${field}: \\S`));
      expect(error.message).not.toContain('\n');
      expect(error.message.length).toBeLessThan(300);
    }
    expect((await ready.agent.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('cuts a long key short in the line, and still answers a method it does not serve with -32601', async () => {
    const key = 'k'.repeat(10_000);
    const error = await send('completion/complete', {
      ref: { type: 'ref/prompt', name: 'beta__greet' },
      argument: { name: 'name', value: 'A' },
      context: { arguments: { [key]: 1 } },
    });
    expect(error.code).toBe(-32602);
    expect(error.message.length).toBeLessThan(400);
    expect((await send('no/such/method', {})).code).toBe(-32601);
  });
});
