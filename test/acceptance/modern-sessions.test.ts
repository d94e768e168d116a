/**
 * Issue 11's rules on the MCP 2026-07-28 era (ADR 013, 014): a modern view session (one per
 * endpoint, token and client name) opens through the session caps, so new client names do
 * not escape a token's cap; a modern call in flight is tracked, so a revoked token's call
 * is answered `token revoked` and a drain answers `server shutting down` after the grace
 * period, with the audit rows saying so; a call waiting for an `input_required` retry ends
 * at once on drain, and its upstream hears why. Every audit row of a session, in either
 * era, names its client (`clientInfo` as `name/version`). One service; the drain comes last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { envelope, postModern } from '../support/modern-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

type Entry = {
  eventType: string;
  error: string | null;
  success: boolean;
  clientId: string | null;
  clientName: string | null;
};

describe('the modern era under the session caps and the shutdown rules', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: { gw: { command: process.execPath, args: [GATEWAY_SERVER], stderr: 'ignore' } },
      gateway: { maxSessionsPerToken: 2 },
    });
    await waitFor(async () => (await svc.server('gw'))?.state === 'connected', { what: 'gw connected' });
  }, 30_000);
  afterAll(() => svc?.stop());

  /** One modern request from client `name`, with `token`. */
  const modern = (
    token: string | undefined,
    name: string,
    method: string,
    params: Record<string, unknown> = {},
    id = 1,
  ) =>
    postModern(
      `${svc.service.url}/mcp`,
      {
        jsonrpc: '2.0',
        id,
        method,
        params: {
          ...params,
          _meta: { ...envelope({ sampling: {} }), 'io.modelcontextprotocol/clientInfo': { name, version: '1.0' } },
        },
      },
      {
        ...(token ? { token } : {}),
        headers: { 'mcp-method': method, ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}) },
      },
    );
  const call = (token: string | undefined, name: string, tool: string, args: Record<string, unknown>) =>
    modern(token, name, 'tools/call', { name: tool, arguments: args });
  const viewsOf = (clientId: string) => svc.service.gateway.sessions().filter((s) => s.clientId === clientId);
  const busy = (clientId: string) => viewsOf(clientId).filter((s) => s.requests.size > 0).length;
  const audit = async (query: string) => (await svc.api<{ entries: Entry[] }>(`/api/audit?${query}`)).body.entries;

  it("caps a token's view sessions whatever client names it sends, and answers its calls in flight on revocation", async () => {
    const made = await svc.api<{ id: string; token: string }>('/api/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'many names' }),
    });
    const { id, token } = made.body;
    // Idle views make room: the token's oldest goes, the count stays at the cap.
    for (const name of ['one', 'two', 'three']) {
      expect((await modern(token, name, 'tools/list')).status).toBe(200);
      expect(viewsOf(id).length).toBeLessThanOrEqual(2);
    }
    // Two views busy with a call each: a third client name finds none to close.
    const slow = ['four', 'five'].map((name) => call(token, name, 'gw__slow', { ms: 60_000 }));
    await waitFor(() => busy(id) === 2, { what: 'two calls in flight' });
    const refused = await modern(token, 'six', 'tools/list', {}, 7);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32000,
        message:
          'too many sessions for this token (gateway.maxSessionsPerToken: 2), and none of them idle to close; end some with DELETE',
      },
    });
    expect(viewsOf(id)).toHaveLength(2);
    // Revoked: each call in flight is answered with the reason, and audited with it.
    expect((await svc.api(`/api/tokens/${id}`, { method: 'DELETE' })).status).toBe(204);
    for (const answer of await Promise.all(slow)) {
      expect(await answer.json()).toMatchObject({ error: { code: -32000, message: 'token revoked' } });
    }
    const rows = await waitFor(
      async () => {
        const found = (await audit(`event=tool_call&client=${id}`)).filter((e) => e.error === 'token revoked');
        return found.length === 2 ? found : null;
      },
      { what: 'the revoked calls in the audit' },
    );
    expect(rows.every((e) => !e.success)).toBe(true);
    expect(viewsOf(id)).toHaveLength(0);
  });

  it("names the client in its session's audit rows, in both eras, and filters by it", async () => {
    const legacy = await connectHttpClient(`${svc.service.url}/mcp`);
    await legacy.callTool({ name: 'gw__echo', arguments: { text: '2025' } });
    await legacy.close();
    const answer = await call(undefined, 'modern-agent', 'gw__echo', { text: '2026' });
    expect(await answer.json()).toMatchObject({ result: { content: [{ text: 'echo:2026' }] } });
    const named = (clientName: string, count: number) =>
      waitFor(
        async () => {
          const rows = await audit(`clientName=${encodeURIComponent(clientName)}`);
          return rows.length === count ? rows : null;
        },
        { what: `the rows of ${clientName}` },
      );
    const legacyRows = await named('boternity-test-agent/1.0.0', 2);
    expect(legacyRows.map((e) => e.eventType).sort()).toEqual(['session_start', 'tool_call']);
    const modernRows = await named('modern-agent/1.0', 2);
    expect(modernRows.map((e) => e.eventType).sort()).toEqual(['session_start', 'tool_call']);
    expect(modernRows.every((e) => e.clientId === 'admin')).toBe(true);
  });

  it('on drain answers a modern call in flight after the grace period, ends a waiting one at once, and refuses new ones', async () => {
    // The sampling request is asked while the ask is gw's only call (so it is attributed to it).
    const asked = await call(undefined, 'asker', 'gw__ask', { prompt: 'anyone?' });
    expect(await asked.json()).toMatchObject({ result: { resultType: 'input_required' } });
    const slow = call(undefined, 'drainer', 'gw__slow', { ms: 60_000 });
    await waitFor(() => busy('admin') === 2, { what: 'a call in flight and one waiting for input' });
    const graceMs = 800;
    const started = Date.now();
    const drained = svc.service.gateway.drain(graceMs);
    // The waiting call ends now: its upstream hears that nobody will answer, and the audit why.
    const sampling = await waitFor(
      async () => (await audit('event=sampling_request&server=gw&limit=1'))[0]?.error?.includes('shutting') ?? null,
      { what: 'the sampling request ended' },
    );
    expect(sampling).toBe(true);
    expect((await audit('event=sampling_request&server=gw&limit=1'))[0]?.error).toBe(
      'server shutting down: sampling/createMessage will not be answered',
    );
    // New requests: on a view that exists, and on a new one.
    expect(await (await modern(undefined, 'drainer', 'tools/list', {}, 3)).json()).toMatchObject({
      id: 3,
      error: { code: -32000, message: 'server shutting down' },
    });
    const fresh = await modern(undefined, 'newcomer', 'tools/list', {}, 4);
    expect(fresh.status).toBe(503);
    expect(await fresh.json()).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32000, message: 'server shutting down' },
    });
    // The call in flight gets the grace period, then its answer.
    const answer = await slow;
    expect(Date.now() - started).toBeGreaterThanOrEqual(graceMs - 50);
    expect(await answer.json()).toMatchObject({ error: { code: -32000, message: 'server shutting down' } });
    await drained;
    const calls = await waitFor(
      async () => {
        const rows = (await audit('event=tool_call&client=admin&server=gw')).filter(
          (e) => e.error === 'server shutting down',
        );
        return rows.length === 2 ? rows : null;
      },
      { what: 'both calls audited as ended by the shutdown' },
    );
    expect(calls.every((e) => !e.success)).toBe(true);
  });
});
