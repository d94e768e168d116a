/**
 * The stdio bridge outlives the service's idle sweep (issue 18 item 6, ADR 024): when the
 * service ends the bridged session after `gateway.sessionIdleMs`, the bridge opens a new one
 * and sends the client's set-up again (initialize, initialized, its log level, its resource
 * subscriptions); a real SDK client over stdio sees no error and keeps its level and
 * its subscription.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/upstream/process-tree.js';
import { fixtureServer } from '../support/fixtures.js';
import { BNITY } from '../support/serve-process.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const RESOURCE_SERVER = fixtureServer('resource-server.mjs');

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    // Each session gets its own upstream process: a level or subscription not sent again is visibly lost.
    mcpServers: { res: { command: process.execPath, args: [RESOURCE_SERVER], scope: 'session' } },
    gateway: { sessionIdleMs: 300 },
  });
  await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), {
    what: 'upstream up',
  }).catch(async (e) => {
    throw new Error(`${e.message} ${JSON.stringify(await svc.servers())}`);
  });
});
afterAll(() => svc?.stop());

describe('bnity mcp serve --stdio after the service reaps its idle session', () => {
  it('opens a new session and carries on: calls and lists work, the level and the subscription hold', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BNITY, 'mcp', 'serve', '--stdio', '--home', svc.home],
      env: { ...process.env, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN, BOTERNITY_URL: svc.service.url } as Record<
        string,
        string
      >,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d) => {
      stderr += d;
    });
    const client = new Client({ name: 'desktop', version: '1' }, { capabilities: { roots: {} } });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    const logs: unknown[] = [];
    const updated: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      logs.push(n.params.data);
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
      updated.push(n.params.uri);
    });
    await client.connect(transport);
    const pid = transport.pid as number;

    const [resource] = (await client.listResources()).resources;
    const uri = resource?.uri as string;
    await client.subscribeResource({ uri });
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'res__log', arguments: {} });
    await client.callTool({ name: 'res__touch', arguments: {} });
    await waitFor(() => updated.length === 1 && logs.length === 1, { what: 'the update and the error line' });
    expect(logs).toEqual(['an error line']);

    // The service's idle sweep ends the bridged session: wait until it is no longer among the sessions.
    const [first] = svc.service.gateway.sessions().map((s) => s.id);
    expect(first).toBeDefined();
    await waitFor(() => !svc.service.gateway.sessions().some((s) => s.id === first), {
      what: 'the service to reap the idle session',
    });

    // The bridge opens a new session on its own (the reaped session's stream met a 404), before the client speaks.
    await waitFor(() => svc.service.gateway.sessions().some((s) => s.id !== first), {
      what: 'the bridge to open a new session',
    });

    // The same client goes on as if nothing happened.
    expect((await client.callTool({ name: 'res__touch', arguments: {} })).content).toEqual([
      { type: 'text', text: 'touched' },
    ]);
    await waitFor(() => updated.length === 2, { what: 'the resource update on the new session' });
    await client.callTool({ name: 'res__log', arguments: {} });
    await waitFor(() => logs.length === 2, { what: 'the error line on the new session' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['res__log', 'res__touch']),
    );
    // Only the error line: the new session's upstream got the client's level again.
    expect(logs).toEqual(['an error line', 'an error line']);
    expect(updated).toEqual([uri, uri]);
    expect(errors).toEqual([]);
    expect(isAlive(pid)).toBe(true);
    expect(stderr).toMatch(/bnity: the service ended the idle session; opened a new one/);
    expect(svc.service.gateway.sessions().some((s) => s.id === first)).toBe(false);
    await client.close();
    await waitFor(() => !isAlive(pid), { what: 'the bridge to exit after stdin closed' });
  });
});
