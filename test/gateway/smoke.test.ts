import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_BIN } from '../support/everything.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

describe('gateway smoke', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN] } } });
    await waitFor(async () => (await svc.server('everything'))?.state === 'connected', { what: 'connected' });
  });
  afterAll(() => svc?.stop());

  it('lists and calls through /mcp/servers/everything and /mcp', async () => {
    const one = await connectHttpClient(`${svc.service.url}/mcp/servers/everything`);
    const tools = await one.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('echo');
    const result = await one.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(JSON.stringify(result.content)).toContain('hi');
    await one.close();
    const all = await connectHttpClient(`${svc.service.url}/mcp`);
    expect((await all.listTools()).tools.map((t) => t.name)).toContain('everything__echo');
    const r2 = await all.callTool({ name: 'everything__echo', arguments: { message: 'yo' } });
    expect(JSON.stringify(r2.content)).toContain('yo');
    await all.close();
  });
});
