/**
 * Issue 17, item 10 over Streamable HTTP: a real server flooding logging messages on a
 * call's event stream. What is over the server's `notificationRate` never reaches the peer
 * and is counted; the call is answered.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import { createNotificationLimits, type FloodChange } from '../../src/upstream/notification-limits.js';
import type { UpstreamPeer } from '../../src/upstream/types.js';
import { fixtureServer, testLogger } from '../support/fixtures.js';
import { remoteConfig } from '../support/server-config.js';
import { startTinyHttp, type TinyHttp } from '../support/start-tiny-http.js';

const FLOOD_HTTP_SERVER = fixtureServer('flood-http-server.mjs');
const SENT = 500;

describe('the notification gate of a Streamable HTTP upstream', () => {
  let server: TinyHttp;
  beforeAll(async () => {
    server = await startTinyHttp(FLOOD_HTTP_SERVER);
  });
  afterAll(() => server?.stop());

  it('drops what is over the rate before the peer hears it, counts it, and the call is answered', async () => {
    const logged: unknown[] = [];
    const refuse = () => Promise.reject(new Error('not asked'));
    const peer: UpstreamPeer = {
      capabilities: { sampling: {}, elicitation: {}, roots: {} },
      createMessage: refuse,
      elicit: refuse,
      listRoots: refuse,
      logged: async (_server, params) => void logged.push(params),
      resourceUpdated: () => undefined,
    };
    const changes: FloodChange[] = [];
    const notifications = createNotificationLimits({ onChange: (c) => changes.push(c) });
    const upstream = await connectUpstream({
      serverId: 'remote',
      config: remoteConfig({ url: server.url, type: 'http', notificationRate: { perSecond: 1, burst: 10 } }),
      log: testLogger(),
      peer,
      notifications,
    });
    try {
      const result = await upstream.callTool({ name: 'flood', arguments: { count: SENT } });
      expect(result.content).toEqual([{ type: 'text', text: `sent ${SENT}` }]);
      const { dropped } = notifications.status('remote');
      // The burst and what the bucket refilled meanwhile went through; all the rest was dropped.
      expect(logged.length).toBeGreaterThanOrEqual(10);
      expect(logged.length + dropped).toBe(SENT);
      expect(dropped).toBeGreaterThan(SENT - 100);
      expect(changes[0]).toMatchObject({ server: 'remote', flooding: true, perSecond: 1, burst: 10 });
    } finally {
      await upstream.close();
      notifications.close();
    }
  }, 30_000);
});
