/**
 * A replica starting in cluster mode (issue 22 part 4): it listens only once its servers have
 * left `connecting`, so that the first call a balancer sends it (in a rolling restart, right
 * after it comes back) is answered, not refused with "server … is connecting"; a server that
 * never connects holds the start back at most `gateway.firstListWaitMs`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLUSTER_TOKEN, startReplica, tinyEntry } from '../support/cluster-replicas.js';
import { createPostgresDatabase } from '../support/test-db.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const START_DELAY_MS = 2_000;

describe('a replica starting on PostgreSQL', () => {
  it('listens once its servers are up: its first call is answered', async () => {
    const database = await createPostgresDatabase({ empty: true });
    cleanup.push(database.drop);
    const slow = { ...tinyEntry(), env: { TINY_START_DELAY_MS: String(START_DELAY_MS) } };
    const started = performance.now();
    const replica = await startReplica('a', database.url, { slow }, cleanup);
    expect(performance.now() - started).toBeGreaterThan(START_DELAY_MS);
    const client = new Client({ name: 'replica-start', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${replica.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${CLUSTER_TOKEN}` } },
      }),
    );
    cleanup.push(() => client.close());
    const result = await client.callTool({ name: 'slow__echo', arguments: { text: 'first' } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'first' }] });
    expect(result.isError).toBeFalsy();
  }, 60_000);

  it('starts anyway after firstListWaitMs when a server never connects', async () => {
    const database = await createPostgresDatabase({ empty: true });
    cleanup.push(database.drop);
    const stuck = { ...tinyEntry(), env: { TINY_START_DELAY_MS: '600000' } };
    const started = performance.now();
    const replica = await startReplica('a', database.url, { stuck }, cleanup, {
      settings: { gateway: { firstListWaitMs: 1_500 } },
    });
    const took = performance.now() - started;
    expect(took).toBeGreaterThan(1_500);
    expect(took).toBeLessThan(12_000);
    const { body } = await replica.api<{ servers: { name: string; state: string }[] }>('GET', '/api/servers');
    expect(body.servers).toEqual([expect.objectContaining({ name: 'stuck', state: 'connecting' })]);
  }, 60_000);
});
