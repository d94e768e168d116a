/**
 * Search mode on the real service over HTTP, in both protocol eras (issue 24): an SDK v1
 * client (2025-11-25) and a v2 client pinned to 2026-07-28 list the meta-tools, find the
 * reference filesystem server's tool (a real child process) and call it through `call_tool`.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpClient } from '../../support/mcp-client.js';
import { connectV2Client } from '../../support/modern-client.js';
import { startTestService, type TestService } from '../../support/test-service.js';

const require = createRequire(import.meta.url);
const FILESYSTEM = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist',
  'index.js',
);

type Lister = { listTools(): Promise<{ tools: { name: string }[] }> };
type Caller = { callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown> };
type Answer = { content: { text: string }[]; structuredContent?: { tools: { name: string }[] } };

describe('search mode in both protocol eras', () => {
  let svc: TestService;
  let notes: string;
  const closers: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    notes = await mkdtemp(join(tmpdir(), 'notes-'));
    await writeFile(join(notes, 'groceries.md'), 'eggs\n');
    svc = await startTestService({
      gateway: { toolSearch: 'on' },
      mcpServers: { files: { command: process.execPath, args: [FILESYSTEM, notes], stderr: 'ignore' } },
    });
  });
  afterAll(async () => {
    await Promise.allSettled(closers.map((c) => c.close()));
    await svc?.stop();
  });

  const run = async (client: Lister & Caller) => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_tools', 'describe_tools', 'call_tool']);
    const found = (await client.callTool({
      name: 'search_tools',
      arguments: { query: 'what files are in my notes folder', limit: 3 },
    })) as Answer;
    const names = found.structuredContent?.tools.map((t) => t.name) ?? [];
    expect(names).toContain('files__list_directory');
    const listed = (await client.callTool({
      name: 'call_tool',
      arguments: { name: 'files__list_directory', arguments: { path: notes } },
    })) as Answer;
    expect(listed.content[0]?.text).toContain('[FILE] groceries.md');
  };

  it('2025-11-25 (SDK v1 client)', async () => {
    const client = await connectHttpClient(`${svc.service.url}/mcp`);
    closers.push(client);
    await run(client);
  });

  it('2026-07-28 (SDK v2 client, pinned)', async () => {
    const client = await connectV2Client(`${svc.service.url}/mcp`, 'modern');
    closers.push(client);
    expect(client.getProtocolEra()).toBe('modern');
    await run(client as unknown as Lister & Caller);
  });
});
