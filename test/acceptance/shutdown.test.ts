/**
 * Issue 11 acceptance (SPEC X7, X8): a shutdown that answers. `bnity serve` with 20 calls in
 * flight (and one on the 2026-07-28 era) gets SIGTERM: new sessions are refused at once, the calls that finish within
 * `shutdown.graceMs` answer normally, each still open then gets a JSON-RPC error (`server
 * shutting down`) before its stream closes; exit 0, no process left, and the audit rows
 * say why each call ended. In-process: a revoked token's call in flight and a call the
 * client cancels are audited with their own reasons, and the revoked one is answered.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAudit } from '../../src/storage/audit-query.js';
import { createDb } from '../../src/storage/create-db.js';
import { isAlive } from '../../src/upstream/process-tree.js';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { postInitialize } from '../support/initialize.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { envelope, postModern } from '../support/modern-client.js';
import { spawnServe } from '../support/serve-process.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const GRACE_MS = 2_000;
const token = 'shutdown-test-token';

type Ended = { ok: true; text: string; at: number } | { ok: false; message: string; at: number };

describe('SIGTERM with calls in flight', () => {
  it('answers all 20 within the grace period, exits 0, leaves no process, and audits the true reasons', async () => {
    const home = await mkdtemp(join(tmpdir(), 'bnity-shutdown-'));
    const configPath = join(home, 'boternity.json');
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: { gw: { command: process.execPath, args: [GATEWAY_SERVER] } },
        shutdown: { graceMs: GRACE_MS },
      }),
    );
    const serve = await spawnServe(['--port', '0', '--config', configPath], {
      BOTERNITY_HOME: home,
      BOTERNITY_ADMIN_TOKEN: token,
    });
    const auth = { authorization: `Bearer ${token}` };
    let client: Client | undefined;
    try {
      const gw = await waitFor(
        async () => {
          const body = (await (await fetch(`${serve.url}/api/servers`, { headers: auth })).json()) as {
            servers: { name: string; state: string; pid: number | null }[];
          };
          const found = body.servers.find((s) => s.name === 'gw');
          return found?.state === 'connected' ? found : null;
        },
        { what: 'gw connected', timeoutMs: 20_000 },
      );
      client = await connectHttpClient(`${serve.url}/mcp`, {}, token);
      const agent = client;
      // Ten calls that finish within the grace period, ten that would not.
      const calls = Array.from({ length: 20 }, (_, i) =>
        agent
          .callTool({ name: 'gw__slow', arguments: { ms: i < 10 ? 800 : 60_000 } }, undefined, { timeout: 120_000 })
          .then(
            (r): Ended => ({ ok: true, text: String((r.content as { text: string }[])[0]?.text), at: Date.now() }),
            (e: unknown): Ended => ({ ok: false, message: (e as Error).message, at: Date.now() }),
          ),
      );
      // And one on the 2026-07-28 era, which the same rules hold for.
      const modern = postModern(
        `${serve.url}/mcp`,
        {
          jsonrpc: '2.0',
          id: 21,
          method: 'tools/call',
          params: { name: 'gw__slow', arguments: { ms: 60_000 }, _meta: envelope() },
        },
        { token, headers: { 'mcp-method': 'tools/call', 'mcp-name': 'gw__slow' } },
      ).then(async (r) => ({ body: await r.json(), at: Date.now() }));
      await waitFor(
        async () => {
          const { lines } = (await (await fetch(`${serve.url}/api/servers/gw/stderr`, { headers: auth })).json()) as {
            lines: string[];
          };
          return lines.filter((l) => l.includes('slow started')).length >= 21;
        },
        { what: '21 calls in flight' },
      );
      const termAt = Date.now();
      serve.child.kill('SIGTERM');
      // New sessions are refused while the calls drain.
      const refused = await waitFor(async () => {
        const r = await postInitialize(`${serve.url}/mcp`, auth);
        return r.status === 503 ? r : null;
      });
      expect(JSON.parse(refused.body).error).toEqual({ code: -32000, message: 'server shutting down' });
      const ended = await Promise.all(calls);
      expect(ended.slice(0, 10).every((e) => e.ok && e.text === 'slow done')).toBe(true);
      for (const e of ended.slice(10)) {
        expect(e).toMatchObject({ ok: false, message: 'MCP error -32000: server shutting down' });
        expect(e.at - termAt).toBeGreaterThanOrEqual(GRACE_MS - 100);
        expect(e.at - termAt).toBeLessThan(GRACE_MS + 2_000);
      }
      const late = await modern;
      expect(late.body).toEqual({ jsonrpc: '2.0', id: 21, error: { code: -32000, message: 'server shutting down' } });
      expect(late.at - termAt).toBeGreaterThanOrEqual(GRACE_MS - 100);
      expect(await serve.exited).toEqual({ code: 0, signal: null });
      expect(isAlive(gw.pid as number)).toBe(false);
    } finally {
      if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
      await client?.close().catch(() => undefined);
    }
    const store = await createDb({ url: `file:${join(home, 'boternity.db')}` });
    try {
      const rows = await queryAudit(store.db, { event: 'tool_call', limit: 100 });
      expect(rows).toHaveLength(21);
      expect(rows.filter((r) => r.success)).toHaveLength(10);
      const failed = rows.filter((r) => !r.success);
      expect(failed.map((r) => r.error)).toEqual(Array(11).fill('server shutting down'));
    } finally {
      await store.close();
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('calls ended by revocation or by the client', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { gw: { command: process.execPath, args: [GATEWAY_SERVER] } } });
    await waitFor(async () => (await svc.server('gw'))?.state === 'connected', { what: 'gw connected' });
  }, 30_000);
  afterAll(() => svc?.stop());

  const lastCall = async () => {
    const { body } = await svc.api<{ entries: { error: string | null; success: boolean }[] }>(
      '/api/audit?event=tool_call&limit=1',
    );
    return body.entries[0];
  };
  const slowStarted = () => svc.service.gateway.sessions().some((s) => s.requests.size > 0 && s.clientId !== 'admin');

  it("answers a revoked token's call in flight with a JSON-RPC error, and audits it as revoked", async () => {
    const made = await svc.api<{ id: string; token: string }>('/api/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'soon-revoked' }),
    });
    const agent = await connectHttpClient(`${svc.service.url}/mcp`, {}, made.body.token);
    const call = agent.callTool({ name: 'gw__slow', arguments: { ms: 60_000 } }).then(
      () => 'answered',
      (e: unknown) => (e as Error).message,
    );
    await waitFor(slowStarted, { what: 'the call in flight' });
    expect((await svc.api(`/api/tokens/${made.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await call).toBe('MCP error -32000: token revoked');
    await waitFor(async () => (await lastCall())?.error === 'token revoked', { what: 'the audit row' });
    await agent.close();
  });

  it('audits a call the client cancelled as cancelled, not as an upstream failure', async () => {
    const agent = await connectHttpClient(`${svc.service.url}/mcp`);
    const controller = new AbortController();
    const call = agent
      .callTool({ name: 'gw__slow', arguments: { ms: 60_000 } }, undefined, { signal: controller.signal })
      .catch(() => 'cancelled');
    await waitFor(() => svc.service.gateway.sessions().some((s) => s.requests.size > 0), { what: 'the call' });
    controller.abort('changed my mind');
    expect(await call).toBe('cancelled');
    await waitFor(async () => (await lastCall())?.error === 'cancelled by the client', { what: 'the audit row' });
    await agent.close();
  });
});
