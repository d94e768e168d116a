/**
 * Issue 2 acceptance: a hung stdio upstream is found by its health ping and replaced;
 * a catalog change reaches /api/servers and the event stream; a service whose every
 * upstream is down still serves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/upstream/process-tree.js';
import { DYNAMIC_SERVER, TINY_SERVER } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const node = process.execPath;
let svc: TestService | undefined;
let sse: Awaited<ReturnType<TestService['events']>> | undefined;
afterEach(async () => {
  await sse?.close();
  await svc?.stop();
  sse = undefined;
  svc = undefined;
});

describe('health, catalog and degraded start', () => {
  it('finds a SIGSTOPped stdio upstream within its ping interval plus timeout, ends it and starts a fresh one', async () => {
    const interval = 500;
    const timeout = 500;
    svc = await startTestService({
      mcpServers: {
        hung: {
          command: node,
          args: [TINY_SERVER],
          healthIntervalMs: interval,
          pingTimeoutMs: timeout,
          backoff: { baseMs: 100 },
        },
      },
    });
    sse = await svc.events();
    const before = await waitFor(
      async () => {
        const s = await svc?.server('hung');
        return s?.state === 'connected' ? s : null;
      },
      { what: 'hung connected' },
    );
    const stoppedAt = Date.now();
    process.kill(before.pid as number, 'SIGSTOP');
    const event = await sse.next(
      (e) => e.event === 'reconnecting' && (e.data as { server: string }).server === 'hung',
      5_000,
    );
    const detectedIn = Date.parse((event.data as { at: string }).at) - stoppedAt;
    expect(detectedIn).toBeLessThanOrEqual(interval + timeout + 500);
    expect((event.data as { error: { message: string } }).error.message).toMatch(/health ping/);
    const after = await waitFor(
      async () => {
        const s = await svc?.server('hung');
        return s?.state === 'connected' && s.pid !== before.pid ? s : null;
      },
      { what: 'a fresh process', timeoutMs: 15_000 },
    );
    expect(after.pid).toBeGreaterThan(0);
    await waitFor(() => !isAlive(before.pid as number), { what: 'the stopped process to be ended', timeoutMs: 10_000 });
  });

  it('reports a tool added by the upstream: new toolCount and a catalog_changed event', async () => {
    svc = await startTestService({
      mcpServers: { dyn: { command: node, args: [DYNAMIC_SERVER], healthIntervalMs: 60_000 } },
    });
    sse = await svc.events();
    const before = await waitFor(
      async () => {
        const s = await svc?.server('dyn');
        return s?.state === 'connected' ? s : null;
      },
      { what: 'dyn connected' },
    );
    const call = await svc.api('/api/servers/dyn/tools');
    expect(call.status).toBe(200);
    const upstream = svc.service.hub.upstream('dyn');
    await upstream?.callTool({ name: 'add_tool', arguments: { name: 'fresh_tool' } });
    const changed = await sse.next(
      (e) => e.event === 'catalog_changed' && (e.data as { server: string }).server === 'dyn',
    );
    const data = changed.data as { toolCount: number; changes: { kind: string; added: string[] }[] };
    expect(data.toolCount).toBe(before.toolCount + 1);
    expect(data.changes).toEqual([expect.objectContaining({ kind: 'tools', added: ['fresh_tool'] })]);
    expect((await svc.server('dyn'))?.toolCount).toBe(before.toolCount + 1);
    const tools = (await svc.api<{ tools: { name: string }[] }>('/api/servers/dyn/tools')).body.tools.map(
      (t) => t.name,
    );
    expect(tools).toContain('fresh_tool');
  });

  it('serves /healthz and /api/servers when every upstream is down', async () => {
    svc = await startTestService({
      mcpServers: {
        gone: { command: '/nonexistent/mcp-server' },
        closed: { url: `http://127.0.0.1:${await freePort()}/mcp` },
      },
    });
    const health = await fetch(`${svc.service.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const servers = await waitFor(
      async () => {
        const list = await svc?.servers();
        return list?.every((s) => s.attempt >= 1) ? list : null;
      },
      { what: 'both failing' },
    );
    expect(servers.map((s) => s.name)).toEqual(['gone', 'closed']);
    expect(servers.find((s) => s.name === 'gone')?.lastError).toMatch(/ENOENT/);
    const down = await svc.api('/api/servers/gone/tools');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      error: {
        code: 'upstream_unavailable',
        message: expect.stringMatching(/server "gone" is (reconnecting|connecting)/),
      },
    });
  });

  it('refuses requests without the admin token', async () => {
    svc = await startTestService({ mcpServers: {} });
    const none = await fetch(`${svc.service.url}/api/servers`);
    expect(none.status).toBe(401);
    const wrong = await fetch(`${svc.service.url}/api/servers`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { code: 'unauthorized', message: 'invalid bearer token' } });
    const unknown = await svc.api('/api/servers/missing');
    expect(unknown.status).toBe(404);
  });
});
