/**
 * The cap on an upstream connection's requests waiting on agents (X8): during one call an
 * upstream asks for 20 root lists at once; the agent is asked 16, the other 4 are refused
 * to the upstream at once with -32000 naming the cap, nothing of them relayed or audited,
 * one warning; once the agent answers, the connection may ask again.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListRootsRequestSchema, ListRootsResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_PENDING_PEER_REQUESTS } from '../../../src/gateway/peer/cap-pending.js';
import { captureLog, LEVEL } from '../../support/capture-log.js';
import { type GatewayHarness, startGateway } from '../../support/gateway-harness.js';
import { waitFor } from '../../support/wait-for.js';

/** What the upstream got back for its requests: `answered`, or the refusal's code and message. */
const outcomes: string[] = [];

/** An upstream whose `ask` tool sends `count` roots/list requests at once during the call. */
function askingServer() {
  const server = new McpServer({ name: 'asker', version: '1' });
  server.registerTool('ask', { inputSchema: { count: z.number() } }, async ({ count }, extra) => {
    const asks = Array.from({ length: count }, () =>
      extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema, { timeout: 30_000 }).then(
        () => outcomes.push('answered'),
        (error: unknown) => outcomes.push(error instanceof McpError ? `${error.code} ${error.message}` : String(error)),
      ),
    );
    await Promise.all(asks);
    return { content: [{ type: 'text', text: 'asked' }] };
  });
  return server;
}

describe('pending requests from an upstream', () => {
  let gw: GatewayHarness;
  const logged = captureLog('warn');
  beforeAll(async () => {
    gw = await startGateway({ servers: { asker: { make: askingServer } }, log: logged.log });
  });
  afterAll(() => gw?.stop());

  it('past 16 waiting on the agent, the excess is refused at once to the upstream, never relayed', async () => {
    const { client } = await gw.agent({ kind: 'all' }, { capabilities: { roots: {} } }, 'holder');
    let asked = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked += 1;
      await held;
      return { roots: [] };
    });
    const call = client.callTool({ name: 'asker__ask', arguments: { count: 20 } });
    // The 4 over the cap come back while the 16 still wait on the agent.
    await waitFor(() => outcomes.length === 4, { what: 'the refusals' });
    expect(outcomes).toEqual(
      Array(4).fill(
        `-32000 MCP error -32000: too many requests: server "asker" already has ${MAX_PENDING_PEER_REQUESTS} sampling, elicitation or roots requests waiting for an answer on this connection; this one was not relayed, retry once some have answered`,
      ),
    );
    await waitFor(() => asked === MAX_PENDING_PEER_REQUESTS, { what: 'the agent to be asked 16 times' });
    release();
    expect(await call).toEqual({ content: [{ type: 'text', text: 'asked' }] });
    expect(asked).toBe(MAX_PENDING_PEER_REQUESTS);
    expect(outcomes.filter((o) => o === 'answered')).toHaveLength(MAX_PENDING_PEER_REQUESTS);
    expect(gw.audit.filter((r) => r.eventType === 'roots_request')).toHaveLength(MAX_PENDING_PEER_REQUESTS);
    const warnings = logged.lines.filter((l) => l.level === LEVEL.warn);
    expect(warnings.map((l) => [l.msg, l.server, l.limit])).toEqual([
      ['upstream requests over the cap of pending requests refused', 'asker', MAX_PENDING_PEER_REQUESTS],
    ]);
    // Drained: the same connection may ask again.
    outcomes.length = 0;
    expect(await client.callTool({ name: 'asker__ask', arguments: { count: 3 } })).toEqual({
      content: [{ type: 'text', text: 'asked' }],
    });
    expect(outcomes).toEqual(['answered', 'answered', 'answered']);
  });
});
