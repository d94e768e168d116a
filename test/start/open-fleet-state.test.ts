/**
 * Fleet-wide state (issue 22 part 7): two replicas (real services in-process, each with its own
 * home, children and upstream connections) on one test PostgreSQL. A token revoked through one
 * is refused by the other on its very next request and that replica's sessions of it end; a
 * rug pull seen by one replica hides the tool on both, and an approval through the other lifts
 * it on both; a bot created or deleted through one is served or dropped by the other's `/mcp`;
 * an audit row written by each is read by one `GET /api/audit`.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fixtureServer, TINY_SERVER } from '../support/fixtures.js';
import { postInitialize } from '../support/initialize.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const quiet = { healthIntervalMs: 60_000 };
const RUG_PULL_SERVER = fixtureServer('rug-pull-server.mjs');

/**
 * Two replicas on one fresh database, serving `mcpServers`, each with every server connected.
 * What is tested here is not their stop: a short `shutdown.graceMs` (each stop waited its 3 s
 * for a connection of the test's HTTP client that had sent nothing).
 */
async function twoReplicas(mcpServers: Record<string, unknown>) {
  const database = await createPostgresDatabase();
  const env = { BOTERNITY_DATABASE_URL: database.url };
  const settings = { mcpServers, shutdown: { graceMs: 300 } };
  const a = await startTestService(settings, { env });
  const b = await startTestService(settings, { env });
  for (const replica of [a, b])
    await waitFor(async () => (await replica.servers()).every((s) => s.state === 'connected'), {
      what: 'every server connected',
      timeoutMs: 30_000,
    });
  return {
    a,
    b,
    url: database.url,
    async stop() {
      await a.stop();
      await b.stop();
      await database.drop();
    },
  };
}

/** An MCP `initialize` sent to `url` with `token`: 200 for a live token, 401 for a revoked one. */
const initialize = async (url: string, token: string) =>
  (await postInitialize(`${url}/mcp`, { authorization: `Bearer ${token}` })).status;

describe('tokens, bots and the audit across two replicas', () => {
  let pair: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    pair = await twoReplicas({ tiny: { command: process.execPath, args: [TINY_SERVER], ...quiet } });
  }, 60_000);
  afterAll(() => pair?.stop());

  const makeToken = async (on: TestService, name: string) => {
    const made = await on.send<{ id: string; token: string }>('POST', '/api/tokens', { name });
    expect(made.status).toBe(201);
    return made.body;
  };

  it('refuses a token revoked through A on B from the very next request, and ends its sessions on B', async () => {
    const { a, b } = pair;
    const { id, token } = await makeToken(a, 'agent');
    const agent = await connectHttpClient(`${b.service.url}/mcp`, {}, token);
    // B has checked the token just now: it remembers it live for a second.
    expect((await agent.listTools()).tools.map((t) => t.name)).toContain('tiny__echo');
    expect(b.service.gateway.sessions().filter((s) => s.clientId === id)).toHaveLength(1);
    const other = await makeToken(b, 'bystander');
    const bystander = await connectHttpClient(`${b.service.url}/mcp`, {}, other.token);

    expect((await a.api(`/api/tokens/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await initialize(b.service.url, token)).toBe(401);
    await expect(agent.listTools()).rejects.toThrow(/invalid bearer token/);
    await waitFor(() => b.service.gateway.sessions().every((s) => s.clientId !== id), {
      what: "B's session of the revoked token ended",
    });
    // Another token's session on B goes on.
    expect((await bystander.listTools()).tools.map((t) => t.name)).toContain('tiny__echo');
    await bystander.close();
    await agent.close().catch(() => undefined);
  });

  it('refuses on both replicas a token revoked with the CLI on the database, no service asked', async () => {
    const { a, b, url } = pair;
    const { id, token } = await makeToken(a, 'cli-revoked');
    for (const replica of [a, b]) expect(await initialize(replica.service.url, token)).toBe(200);
    const env: NodeJS.ProcessEnv = { ...process.env, BOTERNITY_DATABASE_URL: url, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN };
    delete env.BOTERNITY_URL;
    // A home no service runs in: the CLI revokes on the database and tells the replicas.
    expect(await main(['token', 'revoke', id, '--home', `${a.home}-cli`], env)).toBe(0);
    for (const replica of [a, b]) expect(await initialize(replica.service.url, token)).toBe(401);
  });

  it("serves a bot created through A in B's /mcp at once, and drops it when deleted through A", async () => {
    const { a, b } = pair;
    const admin = await connectHttpClient(`${b.service.url}/mcp`);
    let changed = 0;
    admin.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed += 1;
    });
    const names = async () => (await admin.listTools()).tools.map((t) => t.name);
    // B's bot tools are listed, and kept, before the bot exists.
    expect(await names()).not.toContain('chat__helper');
    const made = await a.send('POST', '/api/bots', { slug: 'helper', name: 'Helper' });
    expect(made.status).toBe(201);
    await waitFor(() => changed > 0, { what: "B's session told tools/list_changed" });
    expect(await names()).toContain('chat__helper');
    expect((await b.api<{ bots: { slug: string }[] }>('/api/bots')).body.bots.map((x) => x.slug)).toContain('helper');
    expect((await a.api('/api/bots/helper', { method: 'DELETE' })).status).toBe(200);
    await waitFor(async () => !(await names()).includes('chat__helper'), { what: 'B drops chat__helper' });
    await admin.close();
  });

  it("tells B's session, on its GET stream, of a bot's activity on A", async () => {
    const { a, b } = pair;
    const admin = await connectHttpClient(`${b.service.url}/mcp`);
    const heard: { event?: string; bot?: string; relayedFrom?: string }[] = [];
    admin.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      if (n.params.logger === 'boternity.bots') heard.push(n.params.data as (typeof heard)[0]);
    });
    // A bot made through B itself: B's own activity reaches the session once its GET stream is open.
    await waitFor(
      async () => {
        const slug = `near-${heard.length}-${Math.random().toString(36).slice(2, 8)}`;
        expect((await b.send('POST', '/api/bots', { slug, name: 'Near' })).status).toBe(201);
        return heard.some((h) => h.event === 'bot_created');
      },
      { what: "B's session's GET stream open", intervalMs: 250 },
    );
    const eventsOfB = await b.events('?lastEventId=0');
    expect((await a.send('POST', '/api/bots', { slug: 'faraway', name: 'Far away' })).status).toBe(201);
    await waitFor(() => heard.some((h) => h.bot === 'faraway'), { what: "A's bot_created on B's session" });
    expect(heard.filter((h) => h.bot === 'faraway')).toEqual([
      expect.objectContaining({ event: 'bot_created', bot: 'faraway' }),
    ]);
    // B's own event stream names the replica it happened on: A.
    const replicaOfA = (await a.api<{ replica: string }>('/api/cluster')).body.replica;
    const told = await eventsOfB.next(
      (e) => e.event === 'bot_created' && (e.data as { bot?: string }).bot === 'faraway',
    );
    expect(told.data).toMatchObject({ bot: 'faraway', replica: replicaOfA, relayedFrom: replicaOfA });
    expect(replicaOfA).not.toBe((await b.api<{ replica: string }>('/api/cluster')).body.replica);
    await admin.close();
  });

  it('serves on both replicas a bot made with the CLI on the database, no service asked', async () => {
    const { a, b, url } = pair;
    const sessions = [await connectHttpClient(`${a.service.url}/mcp`), await connectHttpClient(`${b.service.url}/mcp`)];
    // Each replica has listed (and kept) its bot tools before the bot exists.
    for (const session of sessions)
      expect((await session.listTools()).tools.map((t) => t.name)).not.toContain('chat__offline');
    const env: NodeJS.ProcessEnv = { ...process.env, BOTERNITY_DATABASE_URL: url, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN };
    expect(
      await main(['bot', 'create', 'offline', '--name', 'Offline', '--home', `${b.home}-cli`, '--json'], env),
    ).toBe(0);
    for (const session of sessions)
      await waitFor(async () => (await session.listTools()).tools.some((t) => t.name === 'chat__offline'), {
        what: 'chat__offline served',
      });
    for (const session of sessions) await session.close();
  });

  it('reads in one GET /api/audit the rows each replica wrote', async () => {
    const { a, b } = pair;
    const onA = await makeToken(a, 'audited-on-a');
    const onB = await makeToken(a, 'audited-on-b');
    for (const [replica, made] of [
      [a, onA],
      [b, onB],
    ] as const) {
      const client = await connectHttpClient(`${replica.service.url}/mcp`, {}, made.token);
      await client.callTool({ name: 'tiny__echo', arguments: { text: made.id } });
      await client.close();
    }
    const rows = await waitFor(
      async () => {
        const { body } = await b.api<{ entries: { clientId: string | null; toolName: string | null }[] }>(
          '/api/audit?event=tool_call',
        );
        const mine = body.entries.filter((e) => e.clientId === onA.id || e.clientId === onB.id);
        return mine.length >= 2 ? mine : null;
      },
      { what: 'the tool calls of both replicas in the audit' },
    );
    expect(new Set(rows.map((r) => r.clientId))).toEqual(new Set([onA.id, onB.id]));
    expect(rows.every((r) => r.toolName === 'echo')).toBe(true);
  });
});

describe('rug-pull quarantines across two replicas', () => {
  let pair: Awaited<ReturnType<typeof twoReplicas>>;
  let onA: Client;
  let onB: Client;
  beforeAll(async () => {
    pair = await twoReplicas({ rug: { command: process.execPath, args: [RUG_PULL_SERVER], ...quiet } });
    onA = await connectHttpClient(`${pair.a.service.url}/mcp`);
    onB = await connectHttpClient(`${pair.b.service.url}/mcp`);
  }, 60_000);
  afterAll(async () => {
    await onA?.close();
    await onB?.close();
    await pair?.stop();
  });

  const rugTools = async (client: Client) =>
    (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('rug__'));

  it('hides on B a tool only A saw change; an approval through B lists it again on both', async () => {
    const { a, b } = pair;
    expect(await rugTools(onA)).toEqual(['rug__calc', 'rug__mutate']);
    expect(await rugTools(onB)).toEqual(['rug__calc', 'rug__mutate']);
    const eventsOfB = await b.events('?lastEventId=0');
    // A's child rug-pulls; B's child does not (each replica runs its own).
    await onA.callTool({ name: 'rug__mutate', arguments: { text: 'Adds two numbers, and more' } });
    await waitFor(async () => !(await rugTools(onA)).includes('rug__calc'), { what: 'calc hidden on A' });
    await waitFor(async () => !(await rugTools(onB)).includes('rug__calc'), { what: 'calc hidden on B' });
    // B says so on its own events, marked as seen by another replica.
    const told = await eventsOfB.next((e) => e.event === 'tool_quarantined');
    expect(told.data).toMatchObject({ server: 'rug', tool: 'calc', policy: 'strict', relayedFrom: expect.any(String) });
    await expect(onB.callTool({ name: 'rug__calc', arguments: { a: 1, b: 1 } })).rejects.toThrow(
      /not available in this view/,
    );
    const held = await b.api<{ quarantines: { tool: string; pendingHash: string }[] }>('/api/quarantines');
    expect(held.body.quarantines.map((q) => q.tool)).toEqual(['calc']);
    // B's child makes the same change: B counts it as the change held already, not a new one.
    await onB.callTool({ name: 'rug__mutate', arguments: { text: 'Adds two numbers, and more' } });
    await eventsOfB.next((e) => e.event === 'catalog_changed');
    expect(await rugTools(onB)).toEqual(['rug__mutate']);

    const hash = held.body.quarantines[0]?.pendingHash as string;
    const approved = await b.send('POST', `/api/servers/rug/tools/calc/approve?hash=${hash}`, {});
    expect(approved.status).toBe(200);
    await waitFor(async () => (await rugTools(onA)).includes('rug__calc'), { what: 'calc listed again on A' });
    await waitFor(async () => (await rugTools(onB)).includes('rug__calc'), { what: 'calc listed again on B' });
    expect((await onA.callTool({ name: 'rug__calc', arguments: { a: 2, b: 3 } })).content).toEqual([
      { type: 'text', text: '5' },
    ]);
    // One audit row per quarantine and per approval: written by the replica that saw or took it.
    const audited = await waitFor(
      async () => {
        const { body } = await a.api<{ entries: { eventType: string }[] }>('/api/audit?server=rug');
        const kinds = body.entries.map((e) => e.eventType).filter((t) => t.startsWith('tool_'));
        // Each replica writes its own rows on its own timer: A's may land after B's.
        return kinds.includes('tool_approved') && kinds.includes('tool_quarantined') ? kinds : null;
      },
      { what: 'the quarantine and the approval audited' },
    );
    expect(audited.filter((t) => t === 'tool_quarantined')).toHaveLength(1);
    expect(audited.filter((t) => t === 'tool_approved')).toHaveLength(1);
    await eventsOfB.close();
  });
});
