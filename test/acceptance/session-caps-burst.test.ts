/**
 * SPEC X8's caps on sessions hold under a burst: initializes of one token that arrive
 * together are each counted against the sessions the others opened (the count and the
 * registration with nothing between), not all admitted against the count before any.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('the session caps under a burst', { timeout: 60_000 }, () => {
  let svc: TestService;
  const clients: Client[] = [];
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } },
      gateway: { maxSessionsPerToken: 2 },
    });
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await svc?.stop();
  });

  it('keeps one token at its cap when twelve of its sessions open at once', async () => {
    const made = await svc.send<{ id: string; token: string }>('POST', '/api/tokens', { name: 'burst' });
    // A bot just made: the sessions' instructions list the bots, read from the database anew, a
    // wait between each open's count and its registration were they not back to back.
    expect((await svc.send('POST', '/api/bots', { slug: 'fresh', name: 'Fresh' })).status).toBe(201);
    const opened = await Promise.allSettled(
      Array.from({ length: 12 }, () => connectHttpClient(`${svc.service.url}/mcp`, {}, made.body.token)),
    );
    for (const result of opened) if (result.status === 'fulfilled') clients.push(result.value);
    // Over the cap the oldest idle session made room each time: at most two are left.
    const mine = svc.service.gateway.sessions().filter((s) => s.owner !== null && s.clientId === made.body.id);
    expect(mine.length).toBeLessThanOrEqual(2);
    expect(mine.length).toBeGreaterThan(0);
  });
});
