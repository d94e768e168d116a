/**
 * The size limit on what is forwarded to an upstream (SPEC X8), on the real service with a
 * real stdio server: an argument over the server's `maxMessageBytes` (default 4 MiB) is
 * refused before it is written, with one JSON-RPC error line, and the shared upstream keeps
 * its process and serves everyone (a 12 MB line used to make it exit). `/mcp` here accepts
 * bodies up to 20 MB, so only the upstream's limit stands in the way.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

describe('maxMessageBytes', () => {
  let svc: TestService;
  let agent: Client;
  let other: Client;
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        tiny: { command: process.execPath, args: [TINY_SERVER] },
        small: { command: process.execPath, args: [TINY_SERVER], maxMessageBytes: 1_000 },
      },
      gateway: { maxBodyBytes: 20 * 1024 * 1024 },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), { what: 'connected' });
    agent = await connectHttpClient(`${svc.service.url}/mcp`);
    other = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 30_000);
  afterAll(async () => {
    await agent?.close();
    await other?.close();
    await svc?.stop();
  });

  it('refuses a 12 MB argument unsent, and the shared stdio server keeps serving everyone', async () => {
    const pid = (await svc.server('tiny'))?.pid;
    const huge = 'x'.repeat(12 * 1024 * 1024);
    await expect(agent.callTool({ name: 'tiny__echo', arguments: { text: huge } })).rejects.toThrow(
      /^MCP error -32602: the request is \d+ bytes, over the 4194304 bytes server "tiny" takes \(maxMessageBytes\); it was not sent$/,
    );
    expect((await other.callTool({ name: 'tiny__echo', arguments: { text: 'fine' } })).content).toEqual([
      { type: 'text', text: 'fine' },
    ]);
    expect((await agent.callTool({ name: 'tiny__echo', arguments: { text: 'me too' } })).content).toEqual([
      { type: 'text', text: 'me too' },
    ]);
    const after = await svc.server('tiny');
    expect(after).toMatchObject({ state: 'connected', pid });
  });

  it("applies each server's own limit, counted in UTF-8 bytes", async () => {
    // 400 three-byte characters: under 1,000 UTF-16 units, over 1,000 bytes.
    await expect(agent.callTool({ name: 'small__echo', arguments: { text: '€'.repeat(400) } })).rejects.toThrow(
      /over the 1000 bytes server "small" takes/,
    );
    expect((await agent.callTool({ name: 'small__echo', arguments: { text: 'short' } })).content).toEqual([
      { type: 'text', text: 'short' },
    ]);
  });
});
