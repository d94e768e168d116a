/**
 * `logging/setLevel` in-process (G6): relayed to the connected upstreams of the view that
 * declare logging, and to a session's own connection opened later.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alphaAndBeta, fixtureServer, fixtureState } from '../../support/fixture-server.js';
import { type GatewayHarness, startGateway } from '../../support/gateway-harness.js';
import { waitFor } from '../../support/wait-for.js';

describe('logging/setLevel', () => {
  let gw: GatewayHarness;
  const alpha = fixtureState();
  const beta = fixtureState();
  const own = fixtureState();
  beforeAll(async () => {
    gw = await startGateway({
      servers: {
        ...alphaAndBeta({ alpha, beta }),
        own: { make: () => fixtureServer({ prefix: 'o_', state: own }), entry: { scope: 'session' } },
      },
      config: { bots: { solo: { removedServers: ['beta', 'own'] } } },
    });
  });
  afterAll(() => gw?.stop());

  it('reaches the upstreams of the view, and a session connection opened later', async () => {
    const { client, session } = await gw.agent();
    await client.setLoggingLevel('debug');
    expect(alpha.levels).toEqual(['debug']);
    expect(beta.levels).toEqual(['debug']);
    expect(session.loggingLevel).toBe('debug');
    expect(own.levels).toEqual([]);
    await client.callTool({ name: 'own__o_echo', arguments: { text: 'open it' } });
    await waitFor(() => own.levels.includes('debug'), { what: 'the own connection to get the level' });
  });

  it("leaves servers outside the caller's view alone", async () => {
    const { client } = await gw.agent({ kind: 'bot', slug: 'solo' });
    await client.setLoggingLevel('error');
    expect(alpha.levels.at(-1)).toBe('error');
    expect(beta.levels).toEqual(['debug']);
  });
});
