/**
 * A server listing a tool nested thousands of levels deep (X8): the tool is left out at
 * discovery with one warning naming it, the rest of the server is listed, pinned and served;
 * the fingerprints never overflow the stack; a session whose view cannot be built is never
 * left registered.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { canonicalJson, toolFingerprint } from '../../src/guard/tool-fingerprint.js';
import { captureLog, LEVEL } from '../support/capture-log.js';
import { startGateway } from '../support/gateway-harness.js';

/** `{ type: 'object', properties: { a: { … } } }`, `levels` objects deep. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object' };
  for (let i = 1; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

const ok: Tool = { name: 'ok', inputSchema: { type: 'object' } };
const abyss = { name: 'abyss', inputSchema: nested(6_000) } as Tool;

/** An upstream listing `tools` as given, however deep. */
function listing(tools: Tool[]) {
  return () => {
    const server = new McpServer({ name: 'deep', version: '1' }, { capabilities: { tools: {} } });
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    return server;
  };
}

describe('a catalog item nested past the bound', () => {
  it('is left out with one warning; the rest of the server is listed', async () => {
    const { log, lines } = captureLog('warn');
    const gw = await startGateway({ servers: { deep: { make: listing([ok, abyss]) } }, log });
    try {
      const { client } = await gw.agent();
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['deep__ok']);
      const warned = lines.filter((l) => l.level === LEVEL.warn && String(l.msg).startsWith('catalog items left out'));
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatchObject({ server: 'deep', kind: 'tools', items: ['abyss'], refused: 1 });
    } finally {
      await gw.stop();
    }
  });

  it('never leaves a session registered when its view cannot be built', async () => {
    const pins = {
      isHidden: () => {
        throw new Error('view failed');
      },
    };
    const gw = await startGateway({ servers: { deep: { make: listing([ok]) } }, pins });
    try {
      await expect(gw.agent()).rejects.toThrow('view failed');
      expect(gw.gateway.sessions()).toEqual([]);
    } finally {
      await gw.stop();
    }
  });
});

describe('the pin fingerprint', () => {
  it('hashes a tool nested 100,000 levels deep without overflowing the stack', () => {
    expect(toolFingerprint({ name: 'abyss', inputSchema: nested(100_000) as Tool['inputSchema'] })).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });

  it('keeps its key order (code units, integer-like keys too), so existing pins still match', () => {
    expect(canonicalJson({ b: 1, 9: 2, 10: 3, a: { 2: 0, 10: 0 } })).toBe('{"10":3,"9":2,"a":{"10":0,"2":0},"b":1}');
  });
});
