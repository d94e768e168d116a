/**
 * SPEC S5's `tool_call` event: each tool call through the gateway is on `/api/events` (with
 * its server, tool, caller, outcome, duration, sanitized flag), as the audit row has it; and
 * the filters (`?server=`, `?bot=`) apply to it as to any event.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { openSse } from '../support/sse-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const tiny = { command: process.execPath, args: [TINY_SERVER] };
const auth = { authorization: `Bearer ${TEST_TOKEN}` };

describe('tool_call events', { timeout: 60_000 }, () => {
  let svc: TestService;
  let agent: Client;
  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { tiny, other: tiny } });
    for (const name of ['tiny', 'other'])
      await waitFor(async () => (await svc.server(name))?.state === 'connected', { what: `${name} connected` });
    agent = await connectHttpClient(`${svc.service.url}/mcp`);
  });
  afterAll(async () => {
    await agent?.close();
    await svc?.stop();
  });

  it('publishes each tool call, and the server filter applies to it', async () => {
    const all = await openSse(`${svc.service.url}/api/events`, auth);
    const onlyOther = await openSse(`${svc.service.url}/api/events?server=other`, auth);
    try {
      await all.next((e) => e.event === 'snapshot');
      await onlyOther.next((e) => e.event === 'snapshot');
      await agent.callTool({ name: 'tiny__echo', arguments: { text: 'hi' } });
      await agent.callTool({ name: 'other__echo', arguments: { text: 'there' } });
      const first = await all.next((e) => e.event === 'tool_call');
      expect(first.data).toMatchObject({
        type: 'tool_call',
        server: 'tiny',
        tool: 'echo',
        bot: null,
        client: 'admin',
        success: true,
        sanitized: false,
        error: null,
        durationMs: expect.any(Number),
        at: expect.any(String),
      });
      await all.next((e) => e.event === 'tool_call' && (e.data as { server: string }).server === 'other');
      const filtered = await onlyOther.next((e) => e.event === 'tool_call');
      expect(filtered.data).toMatchObject({ server: 'other', tool: 'echo' });
      expect(onlyOther.events.filter((e) => e.event === 'tool_call')).toHaveLength(1);
    } finally {
      await all.close();
      await onlyOther.close();
    }
  });
});
