/**
 * `bnity mcp serve --stdio`: the aggregated view for a client that launches boternity
 * itself (Claude Desktop style). stdout carries only MCP; logs go to stderr.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, listDescendants } from '../../src/upstream/process-tree.js';
import { EVERYTHING_BIN } from '../support/everything.js';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { BNITY, runBnity, startAndStopStdioBridge } from '../support/serve-process.js';
import { waitFor } from '../support/wait-for.js';

let home: string | undefined;
afterEach(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

describe('bnity mcp serve --stdio', () => {
  it('serves the prefixed tools of every server over stdio and leaves nothing behind', async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-stdio-'));
    const config = join(home, 'boternity.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [GATEWAY_SERVER] } } }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BNITY, 'mcp', 'serve', '--stdio', '--config', config, '--home', home],
      env: { ...process.env, BOTERNITY_LOG_LEVEL: 'info' } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d) => {
      stderr += d;
    });
    const errors: Error[] = [];
    const client = new Client({ name: 'desktop', version: '1' });
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    const pid = transport.pid as number;
    // The upstream connects in the background: the list fills once it is up.
    const names = await waitFor(
      async () => {
        const tools = (await client.listTools()).tools.map((t) => t.name);
        return tools.length > 0 ? tools : null;
      },
      { what: 'tools over stdio' },
    );
    expect(names).toContain('fx__echo');
    expect((await client.callTool({ name: 'fx__echo', arguments: { text: 'desk' } })).content).toEqual([
      { type: 'text', text: 'echo:desk' },
    ]);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await client.listTools()).tools.length).toBe(names.length);
    const children = listDescendants(pid);
    expect(children.length).toBeGreaterThanOrEqual(1);
    await client.close();
    await waitFor(() => !isAlive(pid), { what: 'bnity to exit after stdin closed' });
    for (const child of children) expect(isAlive(child)).toBe(false);
    // Logs went to stderr as JSON lines; stdout carried nothing the client could not parse.
    expect(stderr).toMatch(/"msg":"upstream connected"/);
    expect(errors).toEqual([]);
  });

  it.each([
    ['modern', { pin: '2026-07-28' }],
    ['auto', 'auto'],
  ] as const)(
    'serves a %s-era v2 client: discover, lists, calls, reads, prompts and completions',
    async (era, mode) => {
      home = await mkdtemp(join(tmpdir(), 'bnity-stdio-'));
      const config = join(home, 'boternity.json');
      await writeFile(
        config,
        JSON.stringify({ mcpServers: { ev: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } } }),
      );
      const transport = new V2StdioClientTransport({
        command: process.execPath,
        args: [BNITY, 'mcp', 'serve', '--stdio', '--config', config, '--home', home],
        stderr: 'ignore',
      });
      const client = new V2Client({ name: 'modern-desktop', version: '1' }, { versionNegotiation: { mode } });
      await client.connect(transport);
      const pid = transport.pid as number;
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getServerVersion()?.name).toBe('boternity');
      const names = await waitFor(
        async () => {
          const tools = (await client.listTools()).tools.map((t) => t.name);
          return tools.length > 0 ? tools : null;
        },
        { what: 'tools over modern stdio' },
      );
      expect(names).toContain('ev__echo');
      const echoed = await client.callTool({ name: 'ev__echo', arguments: { message: `stdio ${era}` } });
      expect(JSON.stringify(echoed.content)).toContain(`stdio ${era}`);
      const [first] = (await client.listResources()).resources;
      expect((await client.readResource({ uri: first?.uri as string })).contents.length).toBeGreaterThan(0);
      const prompt = await client.getPrompt({ name: 'ev__simple-prompt', arguments: {} });
      expect(prompt.messages.length).toBeGreaterThan(0);
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'ev__completable-prompt' },
        argument: { name: 'department', value: 'S' },
      });
      expect(completion.completion.values).toEqual(['Sales', 'Support']);
      // A listen stream naming a resource hears of its updates (boternity subscribes upstream).
      const updates: string[] = [];
      client.setNotificationHandler('notifications/resources/updated', (n) => {
        updates.push(n.params.uri);
      });
      const listening = await client.listen({ resourceSubscriptions: [first?.uri as string] });
      // The bridge subscribes upstream as the listen stream goes by, not before it is answered:
      // the update server-everything sends at once when turned on may come before that, to no
      // one, and its next comes 5 s later. Turned off and on again, it sends one at once again.
      const toggle = () => client.callTool({ name: 'ev__toggle-subscriber-updates', arguments: {} });
      await toggle();
      await waitFor(
        async () => {
          if (updates.includes(first?.uri as string)) return true;
          await toggle();
          await toggle();
          return updates.includes(first?.uri as string);
        },
        { what: `resources/updated over ${era} stdio`, intervalMs: 300 },
      );
      await listening.close();
      await client.close();
      await waitFor(() => !isAlive(pid), { what: 'bnity to exit after stdin closed' });
    },
  );

  it('stops on SIGTERM before the client has said anything (exit 0)', async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-stdio-'));
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: {} }));
    expect((await startAndStopStdioBridge(config, home)).code).toBe(0);
  });

  it('refuses a bot that does not exist (exit 1, one line)', async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-stdio-'));
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: {} }));
    const result = await runBnity(['mcp', 'serve', '--stdio', '--bot', 'ghost', '--config', config, '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('bnity: bot "ghost" does not exist');
  });

  it('tells a v1 and a v2 client why it cannot serve a bot that does not exist, then exits 1', async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-stdio-'));
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: {} }));
    const args = [BNITY, 'mcp', 'serve', '--stdio', '--bot', 'ghost', '--config', config, '--home', home];
    const launch = <T extends StdioClientTransport | V2StdioClientTransport>(make: () => T) => {
      const transport = make();
      let stderr = '';
      transport.stderr?.on('data', (d) => {
        stderr += d;
      });
      const exited = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
      });
      return { transport, exited, stderr: () => stderr };
    };
    // The 2025-11-25 client: its initialize is answered with the reason.
    const v1 = launch(() => new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' }));
    await expect(new Client({ name: 'desktop', version: '1' }).connect(v1.transport)).rejects.toThrow(
      'MCP error -32602: bot "ghost" does not exist',
    );
    await v1.exited;
    expect(v1.stderr()).toContain('bnity: bot "ghost" does not exist');
    // The v2 client probes with server/discover, is refused with the reason, falls back to initialize: the same reason.
    const v2 = launch(() => new V2StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' }));
    await expect(new V2Client({ name: 'modern-desktop', version: '1' }).connect(v2.transport)).rejects.toThrow(
      /^bot "ghost" does not exist$/,
    );
    // Exit 1, as without a client.
    const raw = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const code = new Promise<number | null>((resolve) => raw.once('close', resolve));
    let out = '';
    raw.stdout.on('data', (d) => {
      out += d;
    });
    raw.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    expect(await code).toBe(1);
    expect(JSON.parse(out)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'bot "ghost" does not exist' },
    });
  });

  it('refuses to run without --stdio (usage error, exit 2)', async () => {
    const result = await runBnity(['mcp', 'serve']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/needs --stdio/);
  });
});
