/**
 * `resources/subscribe` and `unsubscribe` in-process (G6): counted per (server, URI) on a
 * shared connection, told every time on a session's own, updates only to subscribers under
 * the URI they used, released when a session ends, renewed when a connection comes back.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alphaAndBeta, fixtureServer, fixtureState } from '../../support/fixture-server.js';
import { type Agent, type GatewayHarness, startGateway } from '../../support/gateway-harness.js';
import { refusal } from '../../support/refusal.js';
import { waitFor } from '../../support/wait-for.js';

/** The URIs of the resources/updated notifications a client got. */
function updates(client: Client): string[] {
  const seen: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    seen.push(n.params.uri);
  });
  return seen;
}

describe('resource subscriptions', () => {
  let gw: GatewayHarness;
  const alpha = fixtureState();
  const beta = fixtureState();
  const own = fixtureState();
  let one: Agent;
  let two: Agent;
  beforeAll(async () => {
    gw = await startGateway({
      servers: {
        ...alphaAndBeta({ alpha, beta }),
        own: { make: () => fixtureServer({ prefix: 'o_', state: own }), entry: { scope: 'session' } },
      },
    });
    one = await gw.agent();
    two = await gw.agent();
  });
  afterAll(() => gw?.stop());

  it('tells a shared upstream once for many subscribers and once after the last leaves', async () => {
    const uri = 'fixture://a_readme';
    const third = await gw.agent();
    const [seenOne, seenTwo, seenThird] = [updates(one.client), updates(two.client), updates(third.client)];
    await one.client.subscribeResource({ uri });
    await two.client.subscribeResource({ uri });
    expect(alpha.subscriptions).toEqual([`subscribe:${uri}`]);
    await one.client.callTool({ name: 'alpha__a_touch', arguments: { uri } });
    await waitFor(() => seenOne.length === 1 && seenTwo.length === 1, { what: 'both subscribers updated' });
    expect(seenThird).toEqual([]);
    await one.client.unsubscribeResource({ uri });
    expect(alpha.subscriptions).toEqual([`subscribe:${uri}`]);
    await two.client.unsubscribeResource({ uri });
    expect(alpha.subscriptions).toEqual([`subscribe:${uri}`, `unsubscribe:${uri}`]);
    expect(gw.audit.filter((r) => r.eventType === 'resource_subscribe')).toHaveLength(1);
  });

  it('subscribes under a rewritten URI and delivers updates under it', async () => {
    const seen = updates(one.client);
    await one.client.subscribeResource({ uri: 'boternity:beta:fixture://shared' });
    expect(beta.subscriptions).toEqual(['subscribe:fixture://shared']);
    await one.client.callTool({ name: 'beta__b_touch', arguments: { uri: 'fixture://shared' } });
    await waitFor(() => seen.length === 1, { what: 'the update' });
    expect(seen).toEqual(['boternity:beta:fixture://shared']);
  });

  it('releases what an ending session alone held', async () => {
    const leaving = await gw.agent();
    await leaving.client.subscribeResource({ uri: 'fixture://a_items/3' });
    await leaving.session.close();
    expect(gw.gateway.session(leaving.session.id)).toBeUndefined();
    await waitFor(() => alpha.subscriptions.includes('unsubscribe:fixture://a_items/3'), { what: 'the release' });
  });

  it('renews subscriptions when a shared connection comes back', async () => {
    const uri = 'fixture://a_poisoned';
    await two.client.subscribeResource({ uri });
    const told = alpha.subscriptions.filter((s) => s === `subscribe:${uri}`).length;
    await gw.drop('alpha');
    await gw.inState('alpha', 'reconnecting');
    await gw.inState('alpha', 'connected');
    await waitFor(() => alpha.subscriptions.filter((s) => s === `subscribe:${uri}`).length === told + 1, {
      what: 'the renewed subscription',
    });
  });

  it("tells a session's own connection every subscription of that session", async () => {
    const uri = 'fixture://o_readme';
    await one.client.subscribeResource({ uri });
    await two.client.subscribeResource({ uri });
    expect(own.subscriptions).toEqual([`subscribe:${uri}`, `subscribe:${uri}`]);
    const seenOne = updates(one.client);
    const seenTwo = updates(two.client);
    await one.client.callTool({ name: 'own__o_touch', arguments: { uri } });
    await waitFor(() => seenOne.length === 1, { what: "the update on one's own connection" });
    expect(seenTwo).toEqual([]);
  });

  it('refuses a URI outside the view, and an unsubscribe of nothing is no error', async () => {
    expect((await refusal(one.client.subscribeResource({ uri: 'nowhere://x' }))).code).toBe(-32602);
    await expect(one.client.unsubscribeResource({ uri: 'nowhere://x' })).resolves.toEqual({});
  });
});
