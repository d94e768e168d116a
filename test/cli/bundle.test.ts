/**
 * The bundle bin/bnity.js runs (ADR 006) as a real process: the parts it loads on first use
 * (the HTTP side once upstreams are started, prom-client at the first scrape) load and
 * work, and an agent's call goes through.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { type ServeProcess, spawnServe } from '../support/serve-process.js';
import { waitFor } from '../support/wait-for.js';

const TOKEN = 'bundle-test-token';

describe('the bundled bnity serve', () => {
  let home: string;
  let serve: ServeProcess;
  let agent: Client | undefined;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-bundle-'));
    const config = join(home, 'boternity.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } }),
    );
    serve = await spawnServe(['--port', '0', '--config', config], {
      BOTERNITY_HOME: home,
      BOTERNITY_ADMIN_TOKEN: TOKEN,
    });
  });
  afterAll(async () => {
    await agent?.close();
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    await rm(home, { recursive: true, force: true });
  });

  it('serves /metrics from prom-client loaded at the first scrape', async () => {
    const res = await fetch(`${serve.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^boternity_events_total\{type="connecting"\} [1-9]/m);
    expect(text).toContain('boternity_process_resident_memory_bytes');
  });

  it('answers an agent on /mcp', async () => {
    agent = await connectHttpClient(`${serve.url}/mcp`, {}, TOKEN);
    const client = agent;
    const listed = await waitFor(async () => (await client.listTools()).tools.find((t) => t.name === 'tiny__echo'));
    expect(listed.name).toBe('tiny__echo');
    const result = await client.callTool({ name: 'tiny__echo', arguments: { text: 'bundled' } });
    expect(result.content).toEqual([{ type: 'text', text: 'bundled' }]);
  });
});
