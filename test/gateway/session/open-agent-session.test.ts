/**
 * Sessions in-process (G1, G6, X1, X7): opened for a configured view only, audited at start
 * and end, mirroring one server's capabilities, ended by id, by client and when idle, with
 * what they own (their own upstream connections, their roots) going with them.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnknownBotError, UnknownServerError } from '../../../src/errors.js';
import { fixtureServer, fixtureState } from '../../support/fixture-server.js';
import { type GatewayHarness, startGateway } from '../../support/gateway-harness.js';
import { waitFor } from '../../support/wait-for.js';

describe('agent sessions', () => {
  let gw: GatewayHarness;
  const own = fixtureState();
  const ownInstances: McpServer[] = [];
  beforeAll(async () => {
    gw = await startGateway({
      servers: {
        alpha: { make: () => fixtureServer({ prefix: 'a_' }) },
        own: {
          make: () => {
            const server = fixtureServer({ prefix: 'o_', state: own });
            ownInstances.push(server);
            return server;
          },
          entry: { scope: 'session' },
        },
        toolsonly: {
          make: () => {
            const server = new McpServer({ name: 'tools-only', version: '9' });
            server.registerTool('hello', {}, async () => ({ content: [{ type: 'text', text: 'hello' }] }));
            return server;
          },
        },
      },
    });
  });
  afterAll(() => gw?.stop());

  it('refuses a view of a server or bot that does not exist, before any session exists', async () => {
    const before = gw.gateway.sessions().length;
    const [, transport] = InMemoryTransport.createLinkedPair();
    await expect(
      gw.gateway.openSession({ transport, spec: { kind: 'server', server: 'nope' }, label: 't' }),
    ).rejects.toThrow(UnknownServerError);
    await expect(
      gw.gateway.openSession({ transport, spec: { kind: 'bot', slug: 'nobody' }, label: 't' }),
    ).rejects.toThrow(UnknownBotError);
    expect(gw.gateway.sessions()).toHaveLength(before);
  });

  it('audits its start and end, and forgets it when it ends', async () => {
    const { session } = await gw.agent({ kind: 'all' }, {}, 'auditor');
    expect(gw.gateway.session(session.id)).toBe(session);
    await session.close();
    expect(gw.gateway.session(session.id)).toBeUndefined();
    const rows = gw.audit.filter((r) => r.clientId === 'auditor').map((r) => [r.eventType, r.success, r.clientName]);
    // Opened before its initialize (as on stdio): named from the handshake on.
    expect(rows).toEqual([
      ['session_start', true, null],
      ['session_end', true, 'test-agent/1.0.0'],
    ]);
  });

  it("presents one server's endpoint as that server: its name, version, kinds of capability", async () => {
    const { client } = await gw.agent({ kind: 'server', server: 'toolsonly' });
    expect(client.getServerVersion()).toEqual({ name: 'tools-only', version: '9' });
    expect(Object.keys(client.getServerCapabilities() ?? {})).toEqual(['tools']);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['hello']);
    await expect(client.listPrompts()).rejects.toThrow(/Method not found/);
  });

  it("ends a client's sessions (a revoked token), and idle ones, with their own connections", async () => {
    const revoked = await gw.agent({ kind: 'all' }, {}, 'token-1');
    const kept = await gw.agent({ kind: 'all' }, {}, 'token-2');
    await revoked.client.callTool({ name: 'own__o_echo', arguments: { text: 'open' } });
    const opened = ownInstances.at(-1);
    expect(opened?.isConnected()).toBe(true);
    expect(await gw.gateway.closeSessionsOf('token-1')).toBe(1);
    await waitFor(() => opened?.isConnected() === false, { what: 'the own connection to close' });
    expect(gw.gateway.session(kept.session.id)).toBe(kept.session);

    await kept.client.callTool({ name: 'own__o_echo', arguments: { text: 'open' } });
    const idleOwn = ownInstances.at(-1);
    kept.session.lastActivity -= 60_000;
    expect(await gw.gateway.closeIdle(30_000)).toBeGreaterThanOrEqual(1);
    expect(gw.gateway.session(kept.session.id)).toBeUndefined();
    await waitFor(() => idleOwn?.isConnected() === false, { what: 'the idle session connection to close' });
  });

  it("counts each message of its agent as activity, through a transport of the gateway's own", async () => {
    const { client, session } = await gw.agent({ kind: 'all' }, { capabilities: { roots: { listChanged: true } } });
    session.lastActivity -= 60_000;
    const quiet = session.lastActivity;
    await client.ping();
    expect(session.lastActivity).toBeGreaterThan(quiet + 30_000);
    // A notification is activity too; the session record holds no transport.
    session.lastActivity -= 60_000;
    const before = session.lastActivity;
    await client.sendRootsListChanged();
    await waitFor(() => session.lastActivity > before, { what: 'the notification to count' });
    expect(session).not.toHaveProperty('transport');
  });

  it('keeps a modern view open while a listen stream of it is open, through its explicit hook, and lets it idle after', async () => {
    let listening = true;
    const view = await gw.gateway.openModernView({
      spec: { kind: 'all' },
      label: '/mcp',
      owner: 'token:modern',
      publish: () => undefined,
      listening: () => listening,
      onClose: () => undefined,
    });
    view.session.lastActivity -= 60_000;
    await gw.gateway.closeIdle(30_000);
    expect(gw.gateway.session(view.session.id)).toBe(view.session);
    listening = false;
    await gw.gateway.closeIdle(30_000);
    expect(gw.gateway.session(view.session.id)).toBeUndefined();
  });

  it("passes an agent's roots change to its own connections only", async () => {
    const { client } = await gw.agent({ kind: 'all' }, { capabilities: { roots: { listChanged: true } } });
    await client.callTool({ name: 'own__o_echo', arguments: { text: 'open' } });
    await client.sendRootsListChanged();
    await waitFor(() => own.rootsChanged === 1, { what: 'the roots change' });
  });
});
