/**
 * A tool result whose structuredContent nests 20,000 levels (X8): the sanitizer's walk used
 * to overflow the stack before the audit commit, so the agent got -32603 and no row was
 * written (X7). Now it is a failed tool result in one line, and audited.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { captureLog } from '../support/capture-log.js';
import { startGateway } from '../support/gateway-harness.js';

function deepServer() {
  const server = new McpServer({ name: 'deep', version: '1' }, { capabilities: { tools: {} } });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'dig', inputSchema: { type: 'object' } }],
  }));
  server.server.setRequestHandler(CallToolRequestSchema, () => {
    let value: Record<string, unknown> = { bottom: true };
    for (let i = 0; i < 20_000; i++) value = { a: value };
    return { content: [{ type: 'text', text: 'dug' }], structuredContent: value };
  });
  return server;
}

describe('a tool result nested past the bound', () => {
  it('is a failed tool result in one line, and audited', async () => {
    const { log, lines } = captureLog('warn');
    const gw = await startGateway({ servers: { deep: { make: deepServer } }, log });
    try {
      const { client } = await gw.agent();
      const result = await client.callTool({ name: 'deep__dig', arguments: {} });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(result.content).toEqual([
        { type: 'text', text: "the tool's structuredContent is nested deeper than 64 levels: it was not relayed" },
      ]);
      const row = gw.committed.find((r) => r.eventType === 'tool_call');
      expect(row).toMatchObject({ serverName: 'deep', toolName: 'dig', success: false });
      expect(lines.filter((l) => l.msg.includes('nested deeper than 64 levels'))).toHaveLength(1);
    } finally {
      await gw.stop();
    }
  });
});
