/**
 * A server whose listing never ends (X8): a new cursor on every page. Discovery keeps the
 * first {@link MAX_CATALOG_ITEMS} items of a kind (or {@link MAX_CATALOG_BYTES} of their
 * JSON), asks for no further page, and the server connects with them, with one warning.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MAX_CATALOG_BYTES, MAX_CATALOG_ITEMS } from '../../src/upstream/catalog-bounds.js';
import { captureLog, LEVEL } from '../support/capture-log.js';
import { startGateway } from '../support/gateway-harness.js';

/** A server handing out `perPage` tools (made by `tool`) and a new cursor on every page, for ever; counts the pages asked for. */
function endless(perPage: number, tool: (n: number) => Tool) {
  const asked = { pages: 0 };
  const make = () => {
    const server = new McpServer({ name: 'endless', version: '1' }, { capabilities: { tools: {} } });
    server.server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const page = Number(request.params?.cursor ?? 0);
      asked.pages++;
      const tools = Array.from({ length: perPage }, (_, i) => tool(page * perPage + i));
      return { tools, nextCursor: String(page + 1) };
    });
    return server;
  };
  return { make, asked };
}

const cut = (lines: ReturnType<typeof captureLog>['lines']) =>
  lines.filter((l) => l.level === LEVEL.warn && String(l.msg).startsWith('catalog listing cut'));

describe('a server that paginates without end', () => {
  it(`connects with its first ${MAX_CATALOG_ITEMS} tools, asks for no further page and warns once`, async () => {
    const { log, lines } = captureLog('warn');
    const { make, asked } = endless(1_000, (n) => ({ name: `t${n}`, inputSchema: { type: 'object' } }));
    const gw = await startGateway({ servers: { endless: { make } }, log });
    try {
      expect(gw.hub.getServer('endless')).toMatchObject({ state: 'connected', toolCount: MAX_CATALOG_ITEMS });
      expect(gw.hub.upstream('endless')?.catalog().tools.at(-1)?.name).toBe(`t${MAX_CATALOG_ITEMS - 1}`);
      expect(asked.pages).toBe(MAX_CATALOG_ITEMS / 1_000);
      const warned = cut(lines);
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatchObject({ server: 'endless', kind: 'tools', cap: `${MAX_CATALOG_ITEMS} items` });
    } finally {
      await gw.stop();
    }
  });

  it(`keeps at most ${MAX_CATALOG_BYTES} bytes of one kind's item JSON`, async () => {
    const { log, lines } = captureLog('warn');
    const description = 'x'.repeat(1024 * 1024);
    const { make, asked } = endless(4, (n) => ({ name: `t${n}`, description, inputSchema: { type: 'object' } }));
    const gw = await startGateway({ servers: { endless: { make } }, log });
    try {
      // Each tool's JSON is a little over 1 MiB: 15 fit in 16 MiB.
      expect(gw.hub.getServer('endless')).toMatchObject({ state: 'connected', toolCount: 15 });
      expect(asked.pages).toBe(4);
      expect(cut(lines)).toEqual([
        expect.objectContaining({ server: 'endless', kind: 'tools', cap: `${MAX_CATALOG_BYTES} bytes of item JSON` }),
      ]);
    } finally {
      await gw.stop();
    }
  });
});
