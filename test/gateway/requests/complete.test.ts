/**
 * `completion/complete` in-process (G6, X4, X7): a prompt reference goes to the prompt's
 * owner under its own name, a template reference to the template's owner.
 */
import { CompleteResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { alphaAndBeta } from '../../support/fixture-server.js';
import { useGateway } from '../../support/gateway-harness.js';
import { refusal } from '../../support/refusal.js';

describe('completion/complete', () => {
  const ready = useGateway({ servers: alphaAndBeta() });

  it("completes a prompt's argument through the prompt's owner", async () => {
    const done = await ready.agent.complete({
      ref: { type: 'ref/prompt', name: 'beta__greet' },
      argument: { name: 'name', value: 'A' },
    });
    expect(done.completion.values).toEqual(['Ada', 'Alan']);
    expect(ready.gw.audit.at(-1)).toMatchObject({
      eventType: 'completion',
      serverName: 'beta',
      toolName: 'beta__greet',
    });
  });

  it("completes a template's variable through the template's owner", async () => {
    const done = await ready.agent.complete({
      ref: { type: 'ref/resource', uri: 'fixture://b_items/{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(done.completion.values).toEqual(['1', '10']);
  });

  it('refuses a reference outside the view with -32602', async () => {
    const error = await refusal(
      ready.agent.complete({
        ref: { type: 'ref/prompt', name: 'nobody__greet' },
        argument: { name: 'name', value: '' },
      }),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('prompt "nobody__greet" is not available in this view');
  });

  it('refuses a bad context with -32602 and one readable line, not a zod dump, and goes on', async () => {
    const ask = (context: unknown) =>
      ready.agent.request(
        {
          method: 'completion/complete',
          params: { ref: { type: 'ref/prompt', name: 'beta__greet' }, argument: { name: 'name', value: 'A' }, context },
        } as never,
        CompleteResultSchema,
      );
    for (const [context, where] of [
      [{ arguments: 'name=A' }, 'context.arguments'],
      [{ arguments: { name: 7 } }, 'context.arguments.name'],
      ['not an object', 'context'],
    ] as const) {
      const error = await refusal(ask(context));
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(new RegExp(`^MCP error -32602: invalid completion/complete params: ${where}: \\S`));
      expect(error.message).not.toMatch(/\n|"code"|\[\s*\{/);
    }
    const done = await ready.agent.complete({
      ref: { type: 'ref/prompt', name: 'beta__greet' },
      argument: { name: 'name', value: 'A' },
      context: { arguments: { name: 'A' } },
    });
    expect(done.completion.values).toEqual(['Ada', 'Alan']);
  });
});
