/**
 * What an operator sees besides the API: connection rows in mcp_connections, Prometheus
 * metrics, and the per-server stderr log.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listConnections } from '../../src/storage/connection-repo.js';
import { createDb } from '../../src/storage/create-db.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

describe('observability', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        tiny: {
          command: process.execPath,
          args: [TINY_SERVER],
          env: { TINY_STDERR_LINES: '3' },
          healthIntervalMs: 200,
        },
        off: { command: process.execPath, args: [TINY_SERVER], enabled: false },
      },
    });
    await waitFor(async () => (await svc.server('tiny'))?.lastPingAt, { what: 'a health ping' });
  }, 30_000);
  afterAll(() => svc?.stop());

  it('persists each connection state in mcp_connections', async () => {
    const store = await createDb({ url: `file:${join(svc.home, 'boternity.db')}` });
    try {
      const rows = await waitFor(
        async () => {
          const all = await listConnections(store.db);
          return all.find((r) => r.serverName === 'tiny')?.lastHealthPing ? all : null;
        },
        { what: 'a persisted ping' },
      );
      const tiny = rows.find((r) => r.serverName === 'tiny');
      expect(tiny).toMatchObject({ id: 'global:tiny', status: 'connected', transportType: 'stdio', toolCount: 1 });
      expect(tiny?.pid).toBe((await svc.server('tiny'))?.pid);
      expect(tiny?.pingLatencyMs).toBeGreaterThanOrEqual(0);
      expect(rows.find((r) => r.serverName === 'off')).toMatchObject({ status: 'disabled', pid: null });
    } finally {
      await store.close();
    }
  });

  it('serves Prometheus metrics behind the token', async () => {
    const agent = await connectHttpClient(`${svc.service.url}/mcp`);
    await agent.callTool({ name: 'tiny__echo', arguments: { text: 'counted' } });
    await agent.close();
    expect((await fetch(`${svc.service.url}/metrics`)).status).toBe(401);
    const response = await fetch(`${svc.service.url}/metrics`, {
      headers: { authorization: 'Bearer test-admin-token' },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('boternity_upstream_state{server="tiny",state="connected"} 1');
    expect(text).toContain('boternity_upstream_state{server="off",state="disabled"} 1');
    expect(text).toContain('boternity_upstream_catalog_items{server="tiny",kind="tools"} 1');
    expect(text).toMatch(/boternity_upstream_ping_seconds_count\{server="tiny"\} [1-9]/);
    // The in-flight caps (ADR 022): the call went in at once, nothing waits, nothing refused.
    expect(text).toContain('boternity_upstream_requests_in_flight{server="tiny"} 0');
    expect(text).toContain('boternity_upstream_requests_waiting{server="tiny"} 0');
    expect(text).toContain('boternity_upstream_requests_waited_total{server="tiny"} 0');
    expect(text).toContain('boternity_upstream_queue_wait_seconds_total{server="tiny"} 0');
    expect(text).toContain('boternity_upstream_requests_refused_total{server="tiny",reason="queue_full"} 0');
  });

  it('keeps the stdio child stderr in a bounded per-server log', async () => {
    const { status, body } = await svc.api<{ server: string; lines: string[] }>('/api/servers/tiny/stderr');
    expect(status).toBe(200);
    expect(body.server).toBe('tiny');
    expect(body.lines.length).toBeGreaterThanOrEqual(3);
    expect(body.lines.length).toBeLessThanOrEqual(500);
  });
});

describe('stderr of a server that never connects', () => {
  it('is kept across its failed attempts, marked per process', async () => {
    const svc = await startTestService({
      mcpServers: {
        crashing: {
          command: process.execPath,
          args: ['-e', 'console.error("fatal: missing API key"); process.exit(3)'],
          backoff: { baseMs: 50, capMs: 100 },
        },
      },
    });
    try {
      const lines = await waitFor(
        async () => {
          const { body } = await svc.api<{ lines: string[] }>('/api/servers/crashing/stderr');
          return body.lines.filter((l) => l.includes('missing API key')).length >= 2 ? body.lines : null;
        },
        { what: 'stderr of two failed attempts' },
      );
      expect(lines.filter((l) => l.startsWith('[boternity] started pid')).length).toBeGreaterThanOrEqual(2);
      expect((await svc.server('crashing'))?.lastError).toMatch(/missing API key/);
    } finally {
      await svc.stop();
    }
  });
});
