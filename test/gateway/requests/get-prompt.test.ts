/**
 * `prompts/get` in-process (G2, G4, X4, X7): by public name to the owner's own name,
 * sanitized messages, refusals, and an owner that is down.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer } from '../../support/fixture-server.js';
import { type GatewayHarness, startGateway } from '../../support/gateway-harness.js';
import { refusal } from '../../support/refusal.js';

describe('prompts/get', () => {
  let gw: GatewayHarness;
  let agent: Client;
  beforeAll(async () => {
    gw = await startGateway({
      servers: {
        alpha: { make: () => fixtureServer({ prefix: 'a_' }) },
        gone: {
          make: () => {
            throw new Error('never up');
          },
        },
      },
      connected: false,
    });
    await gw.inState('alpha', 'connected');
    await gw.until(() => gw.hub.getServer('gone').attempt >= 1, 'gone failing');
    ({ client: agent } = await gw.agent());
  });
  afterAll(() => gw?.stop());

  it("gets a prompt by its public name from its owner, and audits it under the owner's name", async () => {
    const prompt = await agent.getPrompt({ name: 'alpha__greet', arguments: { name: 'Ada' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }]);
    expect(gw.audit.at(-1)).toMatchObject({ eventType: 'prompt_get', serverName: 'alpha', toolName: 'greet' });
  });

  it('sanitizes the messages a prompt expands to (X4) and marks the audit row', async () => {
    const prompt = await agent.getPrompt({ name: 'alpha__poisoned' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'hi' } }]);
    expect(gw.audit.at(-1)).toMatchObject({ eventType: 'prompt_get', sanitized: true });
    await agent.getPrompt({ name: 'alpha__greet', arguments: { name: 'Ada' } });
    expect(gw.audit.at(-1)).toMatchObject({ eventType: 'prompt_get', sanitized: false });
  });

  it('refuses an unknown name with -32602, and a name over 128 characters without echoing it', async () => {
    expect((await refusal(agent.getPrompt({ name: 'alpha__nope' }))).message).toContain(
      'prompt "alpha__nope" is not available in this view',
    );
    const long = await refusal(agent.getPrompt({ name: 'p'.repeat(5_000) }));
    expect(long.code).toBe(-32602);
    expect(long.message).toContain('prompt name is longer than 128 characters');
    expect(long.message).not.toContain('ppppp');
    expect(gw.audit.at(-1)).toMatchObject({ eventType: 'prompt_get', toolName: null, success: false });
  });

  it('says which server is down, in which state, for a prompt of a server not connected', async () => {
    const down = await refusal(agent.getPrompt({ name: 'gone__greet' }));
    expect(down.code).toBe(-32603);
    expect(down.message).toMatch(/server "gone" is (reconnecting|connecting)( \(attempt \d+\))?/);
  });
});
