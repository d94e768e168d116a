/**
 * X7 acceptance: 500 concurrent tool calls through `/mcp` give exactly 500 `tool_call`
 * rows in `mcp_audit`, readable through `GET /api/audit` with its filters — and also when
 * a real `bnity serve` gets SIGTERM right after the calls resolve (the queue is flushed).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRow } from '../../src/storage/audit-query.js';
import { AUDIT_ROW_FIELDS, queryAudit } from '../../src/storage/audit-query.js';
import { auditHash } from '../../src/storage/audit-writer.js';
import { createDb } from '../../src/storage/create-db.js';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { spawnServe } from '../support/serve-process.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const CALLS = 500;
const SERVER = 'gw';
const config = {
  mcpServers: { [SERVER]: { command: process.execPath, args: [GATEWAY_SERVER], healthIntervalMs: 60_000 } },
  // All 500 wait their turn under the in-flight caps rather than be refused (ADR 022).
  limits: { inFlight: { queuePerToken: CALLS } },
};

/** `CALLS` concurrent echo calls; each must answer its own text. */
async function burst(client: Client): Promise<void> {
  const results = await Promise.all(
    Array.from(
      { length: CALLS },
      (_, i) => client.callTool({ name: `${SERVER}__echo`, arguments: { text: `n${i}` } }) as Promise<CallToolResult>,
    ),
  );
  results.forEach((result, i) => {
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: `echo:n${i}` }]);
  });
}

describe('audit of tool calls, in-process', () => {
  let svc: TestService;
  let client: Client;

  beforeAll(async () => {
    svc = await startTestService(config);
    await waitFor(async () => (await svc.server(SERVER))?.state === 'connected', {
      what: `${SERVER} connected`,
      timeoutMs: 20_000,
    });
    client = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await svc?.stop();
  });

  const audit = async (query: string) => {
    const response = await svc.api<{ entries: AuditRow[] }>(`/api/audit?${query}`);
    expect(response.status).toBe(200);
    return response.body.entries;
  };

  it('500 concurrent calls give exactly 500 tool_call rows in the section 7 shape', async () => {
    await burst(client);
    await waitFor(async () => (await audit('event=tool_call&limit=1000')).length >= CALLS, {
      what: `${CALLS} tool_call rows`,
      timeoutMs: 15_000,
    });
    // Nothing more trickles in.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const entries = await audit('event=tool_call&limit=1000');
    expect(entries).toHaveLength(CALLS);
    expect(new Set(entries.map((e) => e.id)).size).toBe(CALLS);
    // Each call's input is hashed separately: 500 distinct arguments, 500 distinct hashes.
    expect(new Set(entries.map((e) => e.inputHash)).size).toBe(CALLS);

    const entry = entries[0];
    expect(Object.keys(entry ?? {}).sort()).toEqual([...AUDIT_ROW_FIELDS].sort());
    expect(entry).toMatchObject({
      direction: 'server',
      eventType: 'tool_call',
      serverName: SERVER,
      botId: null,
      clientId: 'admin',
      toolName: 'echo',
      success: true,
      error: null,
      sanitized: false,
      tokenUsage: null,
    });
    expect(entry?.id).toEqual(expect.any(String));
    expect(Number.isNaN(Date.parse(entry?.timestamp ?? ''))).toBe(false);
    expect(entry?.inputHash).toMatch(/^[0-9a-f]{64}$/);
    expect(entry?.outputHash).toMatch(/^[0-9a-f]{64}$/);
    expect(entry?.durationMs).toBeGreaterThanOrEqual(0);

    // Newest first.
    const times = entries.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  }, 60_000);

  it('filters by server, tool, client, direction and time', async () => {
    expect(await audit(`event=tool_call&server=${SERVER}&limit=1000`)).toHaveLength(CALLS);
    expect(await audit('event=tool_call&tool=echo&limit=1000')).toHaveLength(CALLS);
    expect(await audit('event=tool_call&client=admin&limit=1000')).toHaveLength(CALLS);
    expect(await audit('event=tool_call&server=nope')).toEqual([]);
    expect(await audit('event=tool_call&direction=client')).toEqual([]);
    expect(await audit('event=tool_call&direction=server&limit=10')).toHaveLength(10);
    const future = new Date(Date.now() + 60 * 60_000).toISOString();
    expect(await audit(`since=${encodeURIComponent(future)}`)).toEqual([]);
    expect(await audit(`event=tool_call&since=${Date.now() - 10 * 60_000}&limit=1000`)).toHaveLength(CALLS);
    expect((await svc.api('/api/audit?direction=sideways')).status).toBe(400);
  });

  it('a long result is hashed after its answer left, and its row holds the hash of what the agent got', async () => {
    const text = 'z'.repeat(20_000);
    const result = await client.callTool({ name: `${SERVER}__echo`, arguments: { text } });
    expect(result.content).toEqual([{ type: 'text', text: `echo:${text}` }]);
    const row = await waitFor(
      async () => (await audit('event=tool_call&limit=1000')).find((e) => e.inputHash === auditHash({ text })) ?? null,
      { what: 'the long call row' },
    );
    expect(row.outputHash).toBe(auditHash(result));
  });

  it('records session start and end and what was listed, besides calls', async () => {
    const lister = await connectHttpClient(`${svc.service.url}/mcp`);
    await lister.listTools();
    await (lister.transport as StreamableHTTPClientTransport).terminateSession();
    await lister.close();
    const rows = await waitFor(
      async () => {
        const starts = await audit('event=session_start&limit=1000');
        const ends = await audit('event=session_end&limit=1000');
        const lists = await audit('event=tools_list&limit=1000');
        // All three in one look: rows arrive in batches, maybe between two of these queries.
        return starts.length >= 2 && ends.length >= 1 && lists.length >= 1 ? { starts, ends, lists } : null;
      },
      { what: 'session and list rows' },
    );
    expect(rows.starts.length).toBeGreaterThanOrEqual(2);
    expect(rows.ends[0]).toMatchObject({ direction: 'server', clientId: 'admin', success: true });
    expect(rows.lists[0]?.outputHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('audit of tool calls, bnity serve stopped with SIGTERM', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-audit-'));
  });
  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('flushes all 500 rows before exiting 0', async () => {
    const token = 'audit-test-token';
    const configPath = join(home, 'boternity.json');
    await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);
    const serve = await spawnServe(['--port', '0', '--config', configPath], {
      BOTERNITY_HOME: home,
      BOTERNITY_ADMIN_TOKEN: token,
    });
    let client: Client | undefined;
    try {
      await waitFor(
        async () => {
          const response = await fetch(`${serve.url}/api/servers`, { headers: { authorization: `Bearer ${token}` } });
          const body = (await response.json()) as { servers: { name: string; state: string }[] };
          return body.servers.find((s) => s.name === SERVER)?.state === 'connected';
        },
        { what: `${SERVER} connected`, timeoutMs: 20_000 },
      );
      client = await connectHttpClient(`${serve.url}/mcp`, {}, token);
      await burst(client);
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toEqual({ code: 0, signal: null });
      expect(`${serve.stdout()}${serve.stderr()}`).not.toMatch(/audit (write failed|entry recorded after close)/);
    } finally {
      if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
      await client?.close().catch(() => undefined);
    }

    const store = await createDb({ url: `file:${join(home, 'boternity.db')}` });
    try {
      const counted = await store.db.all<{ n: number }>(
        sql`select count(*) as n from mcp_audit where event_type = 'tool_call'`,
      );
      expect(Number(counted[0]?.n)).toBe(CALLS);
      const rows = await queryAudit(store.db, { event: 'tool_call', limit: 1_000 });
      expect(rows).toHaveLength(CALLS);
      expect(rows.every((r) => r.serverName === SERVER && r.toolName === 'echo' && r.success)).toBe(true);
    } finally {
      await store.close();
    }
  }, 90_000);
});
