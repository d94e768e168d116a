/**
 * `completion/complete` in-process (G6, X4, X7): a prompt reference goes to the prompt's
 * owner under its own name, a template reference to the template's owner.
 */
import { describe, expect, it } from 'vitest';
import { alphaAndBeta } from '../support/fixture-server.js';
import { useGateway } from '../support/gateway-harness.js';
import { refusal } from '../support/refusal.js';

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
});
