/**
 * The connection mirror (`mcp_connections`) follows the connections' own events, and nothing
 * else that names a server: a tool call (one a call, SPEC S5's `tool_call`) writes no row —
 * it did, and cost the harness 43 % of its calls a second.
 */
import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/bus/create-event-bus.js';
import type { HubEvent } from '../../src/events/hub-event.js';
import type { Hub } from '../../src/hub/create-hub.js';
import { persistConnections } from '../../src/hub/persist-connections.js';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { listConnections } from '../../src/storage/connection-repo.js';
import { testLogger } from '../support/fixtures.js';
import { openTestDb } from '../support/test-db.js';

describe('persistConnections', () => {
  it('writes a row for a connection event, none for a tool call', async () => {
    const store = await openTestDb('sqlite');
    const asked: string[] = [];
    const status: ServerStatus = {
      name: 'tiny',
      transport: 'stdio',
      state: 'connected',
      attempt: 0,
      lastError: null,
      nextRetryAt: null,
      toolCount: 1,
      resourceCount: 0,
      promptCount: 0,
      pid: 7,
      resourceTemplateCount: 0,
      enabled: true,
      connectedAt: new Date().toISOString(),
      lastPingAt: null,
      pingLatencyMs: 3,
      nextDelayMs: null,
      disabledReason: null,
      flooding: false,
      droppedNotifications: 0,
      authorizationServer: null,
    };
    // Our own port, asked for the status it writes: a stand-in that counts the questions.
    const hub = {
      getServer: (name: string) => {
        asked.push(name);
        return status;
      },
    } as unknown as Hub;
    const bus = createEventBus<HubEvent>();
    const mirror = await persistConnections({ hub, bus, db: store.db, log: testLogger() });
    try {
      for (let i = 0; i < 5; i++)
        bus.publish({
          type: 'tool_call',
          server: 'tiny',
          tool: 'echo',
          bot: null,
          client: 'admin',
          success: true,
          durationMs: 1,
          sanitized: false,
          error: null,
        });
      bus.publish({ type: 'health', server: 'tiny', latencyMs: 3 } as HubEvent);
      await mirror.flush();
      expect(asked).toEqual(['tiny']);
      expect((await listConnections(store.db)).map((r) => r.serverName)).toEqual(['tiny']);
    } finally {
      await store.close();
    }
  });
});
