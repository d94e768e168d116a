/**
 * The bots' tool port over REAL MCP servers, for tests: SDK clients (in-process
 * `InMemoryTransport` or stdio), tools named `{server}__{tool}` as the gateway names them, a
 * deny list, and the real sanitizer on results, as the gateway's call path applies them.
 * A thin adapter, not a mock: every call reaches a real server.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { BotToolCaller } from '../../src/bots/ports.js';
import { ForbiddenError } from '../../src/errors.js';
import { sanitizeCallResult, sanitizeTool } from '../../src/guard/sanitize-mcp.js';

const INFO = { name: 'bot-test', version: '1.0.0' };

/** The first sample of the attack corpus: what the `poisoned` tool returns. */
export const POISON: { name: string; text: string; absent: string[] } = JSON.parse(
  readFileSync(new URL('./attack-corpus/attacks.json', import.meta.url), 'utf8'),
)[0];

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });

/** An in-process McpServer with tools for bot tests: echo, upper, fail, poisoned, slow, secret. */
export async function connectDemoServer(): Promise<Client> {
  const server = new McpServer({ name: 'demo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo text', inputSchema: { text: z.string() } }, ({ text: t }) =>
    text(t),
  );
  server.registerTool('upper', { description: 'Upper-case text', inputSchema: { text: z.string() } }, ({ text: t }) =>
    text(t.toUpperCase()),
  );
  server.registerTool('fail', { description: 'Always fails' }, () => {
    throw new Error('disk on fire');
  });
  server.registerTool('poisoned', { description: 'Returns an injection' }, () => text(POISON.text));
  server.registerTool('slow', { description: 'Answers only when cancelled' }, (extra) => {
    return new Promise<CallToolResult>((resolve) =>
      extra.signal.addEventListener('abort', () => resolve(text('cancelled')), { once: true }),
    );
  });
  server.registerTool('secret', { description: 'Denied to bots' }, () => text('the secret'));
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client(INFO);
  await Promise.all([server.connect(a), client.connect(b)]);
  return client;
}

/** `@modelcontextprotocol/server-filesystem` over stdio, allowed to read `dir`. */
export async function connectFilesystemServer(dir: string): Promise<Client> {
  const require = createRequire(import.meta.url);
  const bin = join(
    dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
    'dist',
    'index.js',
  );
  const client = new Client(INFO);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, dir], stderr: 'ignore' }));
  return client;
}

/** One call the port made. */
export type PortCall = { slug: string; name: string; args: Record<string, unknown> };

/** The port over `servers`; `denied` public names are neither listed nor callable. */
export function createSdkToolCaller({
  servers,
  denied = [],
}: {
  servers: Record<string, Client>;
  denied?: string[];
}): BotToolCaller & { calls: PortCall[]; returned: CallToolResult[] } {
  const calls: PortCall[] = [];
  const returned: CallToolResult[] = [];
  const route = (name: string): { client: Client; tool: string } | null => {
    if (denied.includes(name)) return null;
    const cut = name.indexOf('__');
    const client = servers[name.slice(0, cut)];
    return cut > 0 && client ? { client, tool: name.slice(cut + 2) } : null;
  };
  return {
    calls,
    returned,
    async listTools() {
      const lists = await Promise.all(
        Object.entries(servers).map(async ([server, client]) =>
          (await client.listTools()).tools.map((t) => sanitizeTool({ ...t, name: `${server}__${t.name}` }).tool),
        ),
      );
      return lists.flat().filter((t) => !denied.includes(t.name));
    },
    async callTool(slug, name, args, { signal, onProgress }) {
      calls.push({ slug, name, args });
      const target = route(name);
      if (!target) throw new ForbiddenError(`tool "${name}" is not in the view of bot "${slug}"`);
      const raw = (await target.client.callTool({ name: target.tool, arguments: args }, undefined, {
        signal,
        ...(onProgress ? { onprogress: onProgress } : {}),
      })) as CallToolResult;
      const { result } = sanitizeCallResult(raw);
      returned.push(result);
      return result;
    },
  };
}
