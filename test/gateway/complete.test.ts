/**
 * `completion/complete` in-process (G6, X4, X7): a prompt reference goes to the prompt's
 * owner under its own name, a template reference to the template's owner.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer } from '../support/fixture-server.js';
import { type GatewayHarness, startGateway } from '../support/gateway-harness.js';
import { refusal } from '../support/refusal.js';

describe('completion/complete', () => {
  let gw: GatewayHarness;
  let agent: Client;
  beforeAll(async () => {
    gw = await startGateway({
      servers: {
        alpha: { make: () => fixtureServer({ prefix: 'a_' }) },
        beta: { make: () => fixtureServer({ prefix: 'b_' }) },
      },
    });
    ({ client: agent } = await gw.agent());
  });
  afterAll(() => gw?.stop());

  it("completes a prompt's argument through the prompt's owner", async () => {
    const done = await agent.complete({
      ref: { type: 'ref/prompt', name: 'beta__greet' },
      argument: { name: 'name', value: 'A' },
    });
    expect(done.completion.values).toEqual(['Ada', 'Alan']);
    expect(gw.audit.at(-1)).toMatchObject({ eventType: 'completion', serverName: 'beta', toolName: 'beta__greet' });
  });

  it("completes a template's variable through the template's owner", async () => {
    const done = await agent.complete({
      ref: { type: 'ref/resource', uri: 'fixture://b_items/{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(done.completion.values).toEqual(['1', '10']);
  });

  it('refuses a reference outside the view with -32602', async () => {
    const error = await refusal(
      agent.complete({ ref: { type: 'ref/prompt', name: 'nobody__greet' }, argument: { name: 'name', value: '' } }),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('prompt "nobody__greet" is not available in this view');
  });
});
