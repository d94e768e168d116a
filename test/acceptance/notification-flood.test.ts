/**
 * Issue 17, items 5 and 10: a real stdio upstream flooding notifications. What is over its
 * `notificationRate` is dropped and counted, the server is marked as flooding in
 * `GET /api/servers` and on the bus (and not any more once it stops), a bystander is still
 * answered, and what no agent receives is audited as counts per window, not row by row:
 * rows ≪ notifications, and the counts add up to what was sent.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRow } from '../../src/storage/audit-query.js';
import { fixtureServer, TINY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const FLOOD_SERVER = fixtureServer('flood-server.mjs');
const RATE = { perSecond: 20, burst: 20 };

/** How many notifications an audit row stands for: the count of a window's row, else one. */
const countOf = (row: AuditRow) => row.count;

describe('a notification flood from a stdio upstream', () => {
  let svc: TestService;
  let client: Client;

  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        flood: { command: process.execPath, args: [FLOOD_SERVER], enabled: false, notificationRate: RATE },
        tiny: { command: process.execPath, args: [TINY_SERVER] },
      },
      audit: { undeliveredWindowMs: 200 },
    });
    await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
    client = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await svc?.stop();
  });

  it('drops and counts the excess, marks the server flooding, answers a bystander, and audits counts', async () => {
    const events = await svc.events();
    try {
      expect((await svc.api('/api/servers/flood/connect', { method: 'POST' })).status).toBe(202);
      const started = await events.next((e) => e.event === 'server_flooding');
      expect(started.data).toMatchObject({ server: 'flood', flooding: true, dropped: 1, perSecond: 20, burst: 20 });
      const during = await waitFor(
        async () => {
          const status = await svc.server('flood');
          return status && status.droppedNotifications >= 2_000 ? status : null;
        },
        { what: '2000 notifications dropped' },
      );
      expect(during).toMatchObject({ state: 'connected', flooding: true });
      // A bystander on another server is answered meanwhile.
      const echo = (await client.callTool({ name: 'tiny__echo', arguments: { text: 'hi' } })) as CallToolResult;
      expect(echo.content).toEqual([{ type: 'text', text: 'hi' }]);

      const stop = (await client.callTool({ name: 'flood__stop', arguments: {} })) as CallToolResult;
      const sent = JSON.parse((stop.content[0] as { text: string }).text) as Record<string, number>;
      const total = (sent.message ?? 0) + (sent.resources_updated ?? 0);
      const ended = await events.next(
        (e) => e.event === 'server_flooding' && (e.data as { flooding: boolean }).flooding === false,
      );
      expect(ended.data).toMatchObject({ server: 'flood', byKind: { progress: 0, list_changed: 0, other: 0 } });
      expect(await svc.server('flood')).toMatchObject({ state: 'connected', flooding: false });

      // Every notification is accounted for: dropped, or in a row (counted or one by one).
      const { rows, dropped } = await waitFor(
        async () => {
          const entries = (await svc.api<{ entries: AuditRow[] }>('/api/audit?server=flood&limit=1000')).body.entries;
          const notified = entries.filter(
            (e) => e.eventType === 'logging_message' || e.eventType === 'resource_updated',
          );
          const counted = notified.reduce((n, e) => n + countOf(e), 0);
          const dropped = (await svc.server('flood'))?.droppedNotifications ?? 0;
          return counted + dropped === total ? { rows: notified, dropped } : null;
        },
        { what: 'audit rows adding up to what was sent' },
      );
      // What got through is no more than the bucket let through (generously: the flood lasted seconds).
      expect(total - dropped).toBeLessThan(total / 10);
      expect(rows.length * 20).toBeLessThan(total);
      expect(rows.some((e) => e.eventType === 'resource_updated' && e.count > 1)).toBe(true);
      const metrics = await fetch(`${svc.service.url}/metrics`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
      expect(await metrics.text()).toContain(`boternity_notifications_dropped_total{server="flood"} ${dropped}`);
    } finally {
      events.close();
    }
  }, 60_000);
});
