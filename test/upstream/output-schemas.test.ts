/**
 * Output schemas of a hostile or broken upstream (X8). The SDK's client asks for a validator
 * for each tool's output schema on every listing: relisting a server many times keeps the
 * shared validator's cache bounded, and a schema that does not compile no longer keeps the
 * server from connecting; its tool is served, named once on the server's log.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createSchemaValidator, MAX_COMPILED_SCHEMAS } from '../../src/guard/schema-validator.js';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import type { LiveUpstream } from '../../src/upstream/types.js';
import { captureLog, LEVEL } from '../support/capture-log.js';
import { harnessConfig, inMemorySession, startGateway } from '../support/gateway-harness.js';

const object = { type: 'object' } as const;

/** A server whose listing is `listing(generation)`; `relist` moves to the next generation and says so. */
function relisting(listing: (generation: number) => Tool[]) {
  let generation = 0;
  const server = new McpServer({ name: 'relisting', version: '1' }, { capabilities: { tools: { listChanged: true } } });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'marker', description: `generation ${generation}`, inputSchema: object }, ...listing(generation)],
  }));
  const relist = async (upstream: LiveUpstream) => {
    const next = ++generation;
    const seen = new Promise<void>((resolve) => {
      const stop = upstream.watchCatalog((catalog) => {
        if (catalog.tools[0]?.description !== `generation ${next}`) return;
        stop();
        resolve();
      });
    });
    await server.server.sendToolListChanged();
    await seen;
  };
  return { server, relist };
}

async function connect(server: McpServer, schemaValidator: ReturnType<typeof createSchemaValidator>) {
  const entry = { make: () => server, entry: { notificationRate: { relistMinIntervalMs: 0 } } };
  const config = harnessConfig({ relisting: entry }).mcpServers.relisting;
  if (!config) throw new Error('no config');
  return connectUpstream({
    serverId: 'relisting',
    config,
    log: captureLog('warn').log,
    schemaValidator,
    openSession: (options) => inMemorySession(options, entry, () => {}),
  });
}

const tools = (count: number, schema: (n: number) => object): Tool[] =>
  Array.from({ length: count }, (_, n) => ({ name: `t${n}`, inputSchema: object, outputSchema: schema(n) }) as Tool);

describe('relisting a server with many output-schema tools', () => {
  it('compiles each distinct schema once', async () => {
    const validator = createSchemaValidator();
    const { server, relist } = relisting(() =>
      tools(300, (n) => ({ type: 'object', properties: { [`f${n}`]: { type: 'string' } } })),
    );
    const upstream = await connect(server, validator);
    try {
      for (let i = 0; i < 20; i++) await relist(upstream);
      expect(validator.size()).toBe(300);
    } finally {
      await upstream.close();
    }
  });

  it(`keeps at most ${MAX_COMPILED_SCHEMAS} compiled schemas when every listing's schemas are new`, async () => {
    const validator = createSchemaValidator();
    const { server, relist } = relisting((g) =>
      tools(400, (n) => ({ type: 'object', properties: { [`g${g}_${n}`]: { type: 'string' } } })),
    );
    const upstream = await connect(server, validator);
    try {
      for (let i = 0; i < 5; i++) await relist(upstream);
      expect(validator.size()).toBe(MAX_COMPILED_SCHEMAS);
    } finally {
      await upstream.close();
    }
  });
});

describe('a server with output schemas that do not compile', () => {
  const broken: Tool[] = [
    { name: 'ok', inputSchema: object, outputSchema: { type: 'object', required: ['n'] } },
    { name: 'unresolved', inputSchema: object, outputSchema: { type: 'object', $ref: '#/nope' } },
    { name: 'bogus', inputSchema: object, outputSchema: { type: 'object', properties: { b: { type: 'bogus' } } } },
    { name: 'unclosed', inputSchema: object, outputSchema: { type: 'object', properties: { s: { pattern: '(' } } } },
  ];
  const make = () => {
    const server = new McpServer({ name: 'broken', version: '1' }, { capabilities: { tools: {} } });
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: broken }));
    server.server.setRequestHandler(CallToolRequestSchema, () => ({
      content: [],
      structuredContent: { s: 1 },
    }));
    return server;
  };

  it('connects with every tool, the broken ones unvalidated, named in one warning', async () => {
    const { log, lines } = captureLog('warn');
    const gw = await startGateway({ servers: { broken: { make } }, log });
    try {
      // The agent's own client checks results too: one that does not throw on these schemas.
      const { client } = await gw.agent({ kind: 'all' }, { jsonSchemaValidator: createSchemaValidator() });
      const { tools: listed } = await client.listTools();
      expect(listed.map((t) => t.name).sort()).toEqual([
        'broken__bogus',
        'broken__ok',
        'broken__unclosed',
        'broken__unresolved',
      ]);
      const answer = await client.callTool({ name: 'broken__unresolved', arguments: {} });
      expect(answer.isError ?? false).toBe(false);
      // The one that compiles still checks: `n` is required.
      await expect(client.callTool({ name: 'broken__ok', arguments: {} })).rejects.toThrow(
        "does not match the tool's output schema",
      );
      const warned = lines.filter((l) => l.level === LEVEL.warn && String(l.msg).startsWith('tool output schemas'));
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatchObject({ server: 'broken', tools: 3 });
      expect(Object.keys(warned[0]?.reasons as object).sort()).toEqual(['bogus', 'unclosed', 'unresolved']);
    } finally {
      await gw.stop();
    }
  });
});
