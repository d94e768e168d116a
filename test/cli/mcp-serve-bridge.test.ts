/**
 * `bnity mcp serve --stdio` with a service running in its home: a real SDK client over stdio
 * gets the service's view through the bridge (tools, calls, list_changed, sampling), no
 * second supervisor starts, and the session ends on either side.
 */
import { spawn } from 'node:child_process';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, listDescendants } from '../../src/upstream/process-tree.js';
import { DYNAMIC_SERVER, GATEWAY_SERVER } from '../support/fixtures.js';
import { BNITY, runBnity } from '../support/serve-process.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    mcpServers: {
      fx: { command: process.execPath, args: [GATEWAY_SERVER] },
      dyn: { command: process.execPath, args: [DYNAMIC_SERVER] },
    },
    bots: { helper: { removedServers: ['fx'] } },
  });
  await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), { what: 'upstreams up' });
});
afterAll(() => svc?.stop());

/** `bnity mcp serve --stdio` as a desktop client launches it, with its stderr collected. */
function bridgeTransport(extra: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BNITY, 'mcp', 'serve', '--stdio', '--home', svc.home, ...extra],
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
  return { transport, stderr: () => stderr };
}

/** Launch the bridge and connect an SDK client that can sample. */
async function launch(extra: string[] = []) {
  const { transport, stderr } = bridgeTransport(extra);
  const client = new Client({ name: 'desktop', version: '1' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    model: 'stub',
    content: { type: 'text', text: 'from the desktop' },
  }));
  await client.connect(transport);
  return { client, pid: transport.pid as number, stderr };
}

describe('bnity mcp serve --stdio bridging to the running service', () => {
  it("serves the service's view: lists and calls tools, relays sampling and list_changed, starts no supervisor", async () => {
    const { client, pid, stderr } = await launch();
    const changed: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, async (n) => {
      changed.push(n.method);
    });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['fx__echo', 'dyn__add_tool']));
    expect((await client.callTool({ name: 'fx__echo', arguments: { text: 'bridged' } })).content).toEqual([
      { type: 'text', text: 'echo:bridged' },
    ]);
    // The upstream asks the agent to sample: the request crosses the bridge to this client.
    expect((await client.callTool({ name: 'fx__ask', arguments: { prompt: 'hi' } })).content).toEqual([
      { type: 'text', text: 'answer:from the desktop' },
    ]);
    await client.callTool({ name: 'dyn__add_tool', arguments: { name: 'late' } });
    await waitFor(() => changed.length > 0, { what: 'tools/list_changed over the bridge' });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('dyn__late');
    // No second supervisor: the bridge has no child process of its own.
    expect(listDescendants(pid)).toEqual([]);
    expect(stderr()).toContain(`serving ${svc.service.url}/mcp on stdio`);
    await client.close();
    await waitFor(() => !isAlive(pid), { what: 'the bridge to exit after stdin closed' });
  });

  it("serves a bot's view with --bot, and ends with exit 1 when the service refuses the view", async () => {
    const one = await launch(['--bot', 'helper']);
    const tools = (await one.client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('dyn__add_tool');
    expect(tools.some((t) => t.startsWith('fx__'))).toBe(false);
    await one.client.close();

    const { transport, stderr } = bridgeTransport(['--bot', 'ghost']);
    const exited = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
    });
    const client = new Client({ name: 'desktop', version: '1' });
    await expect(client.connect(transport)).rejects.toThrow(/bot "ghost" does not exist/);
    await exited;
    expect(stderr()).toMatch(/bnity: .*answered 404: bot "ghost" does not exist/);

    // A v2 client (auto: it probes with server/discover) is told the same reason.
    const modern = new V2StdioClientTransport({
      command: process.execPath,
      args: [BNITY, 'mcp', 'serve', '--stdio', '--home', svc.home, '--bot', 'ghost'],
      env: { ...process.env, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN, BOTERNITY_URL: svc.service.url } as Record<
        string,
        string
      >,
      stderr: 'ignore',
    });
    await expect(new V2Client({ name: 'modern-desktop', version: '1' }).connect(modern)).rejects.toThrow(
      /answered 404: bot "ghost" does not exist$/,
    );

    // A client that probes in place (as Claude Code does) sends initialize on the same connection
    // after its server/discover was refused: both are answered with the reason, then exit 1.
    const inPlace = spawn(process.execPath, [BNITY, 'mcp', 'serve', '--stdio', '--home', svc.home, '--bot', 'ghost'], {
      env: { ...process.env, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN, BOTERNITY_URL: svc.service.url },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const inPlaceExit = new Promise<number | null>((resolve) => inPlace.once('close', resolve));
    const answers: { id: number; error?: { message: string } }[] = [];
    let pending = '';
    inPlace.stdout.on('data', (d) => {
      pending += d;
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
        answers.push(JSON.parse(pending.slice(0, nl)));
        pending = pending.slice(nl + 1);
      }
    });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'prober', version: '1' },
    };
    inPlace.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } })}\n`,
    );
    await waitFor(() => answers.length === 1, { what: 'the answer to server/discover' });
    const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'prober', version: '1' } };
    inPlace.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: init })}\n`);
    expect(await inPlaceExit).toBe(1);
    expect(answers.map((a) => [a.id, a.error?.message])).toEqual([
      [1, expect.stringMatching(/answered 404: bot "ghost" does not exist$/)],
      [2, expect.stringMatching(/answered 404: bot "ghost" does not exist$/)],
    ]);

    // The home is in use but nothing answers at the URL: an error, not a second supervisor.
    const lost = await runBnity(['mcp', 'serve', '--stdio', '--home', svc.home, '--url', 'http://127.0.0.1:1']);
    expect(lost.code).toBe(1);
    expect(lost.stderr).toBe(
      `bnity: boternity (pid ${process.pid}) runs in ${svc.home} but nothing answers at http://127.0.0.1:1: give its address with --url or BOTERNITY_URL\n`,
    );
  });

  it('bridges a modern (2026-07-28) client: discover, calls, sampling as input_required, listen', async () => {
    const transport = new V2StdioClientTransport({
      command: process.execPath,
      args: [BNITY, 'mcp', 'serve', '--stdio', '--home', svc.home],
      env: { ...process.env, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN, BOTERNITY_URL: svc.service.url } as Record<
        string,
        string
      >,
      stderr: 'ignore',
    });
    const client = new V2Client(
      { name: 'modern-desktop', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { sampling: {} } },
    );
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      model: 'stub',
      content: { type: 'text', text: 'from the modern desktop' },
    }));
    await client.connect(transport);
    const pid = transport.pid as number;
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()?.name).toBe('boternity');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('fx__echo');
    expect((await client.callTool({ name: 'fx__echo', arguments: { text: 'modern' } })).content).toEqual([
      { type: 'text', text: 'echo:modern' },
    ]);
    expect((await client.callTool({ name: 'fx__ask', arguments: { prompt: 'hi' } })).content).toEqual([
      { type: 'text', text: 'answer:from the modern desktop' },
    ]);
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed += 1;
    });
    const listening = await client.listen({ toolsListChanged: true });
    await client.callTool({ name: 'dyn__add_tool', arguments: { name: 'later' } });
    await waitFor(() => changed > 0, { what: 'tools/list_changed on a listen stream over the bridge' });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('dyn__later');
    await listening.close();
    await client.close();
    await waitFor(() => !isAlive(pid), { what: 'the modern bridge to exit after stdin closed' });
  });

  it('ends when the service goes away (run last: it stops the shared service)', async () => {
    const { client, pid, stderr } = await launch();
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await svc.stop();
    await waitFor(() => !isAlive(pid), { what: 'the bridge to exit after the service stopped', timeoutMs: 20_000 });
    expect(stderr()).toMatch(/bnity: (the service ended the session|the service at .* is gone)/);
    await client.close();
  });
});
