/**
 * `bnity serve` killed with SIGKILL right after its answers were received (issue 17): the
 * audit row of every answered call is there after a restart on the same home.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { spawnServe } from '../support/serve-process.js';
import { waitFor } from '../support/wait-for.js';

const TOKEN = 'audit-kill-token';
const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});
const inputHash = (args: unknown) => createHash('sha256').update(JSON.stringify(args)).digest('hex');
const connected = (url: string) =>
  waitFor(
    async () => {
      const r = await fetch(`${url}/api/servers`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const { servers } = (await r.json()) as { servers: { state: string }[] };
      return servers.length === 1 && servers[0]?.state === 'connected';
    },
    { what: 'the upstream connected' },
  );

describe('bnity serve killed with SIGKILL', () => {
  it('keeps the audit row of every call whose answer the agent received', async () => {
    const home = await mkdtemp(join(tmpdir(), 'bnity-audit-kill-'));
    homes.push(home);
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: { up: { command: process.execPath, args: [TINY_SERVER] } } }));
    const env = { BOTERNITY_HOME: home, BOTERNITY_ADMIN_TOKEN: TOKEN };

    const first = await spawnServe(['--port', '0', '--config', config], env);
    let answered: { text: string }[] = [];
    try {
      await connected(first.url);
      const client = await connectHttpClient(`${first.url}/mcp`, {}, TOKEN);
      const args = Array.from({ length: 20 }, (_, i) => ({ text: `kill-${i}` }));
      const results = await Promise.all(args.map((a) => client.callTool({ name: 'up__echo', arguments: a })));
      expect(results.every((r) => r.isError !== true)).toBe(true);
      answered = args;
    } finally {
      // At once: before a batch timer could have written the rows.
      first.child.kill('SIGKILL');
      await first.exited;
    }

    const second = await spawnServe(['--port', '0', '--config', config], env);
    try {
      const rows = await waitFor(
        async () => {
          const r = await fetch(`${second.url}/api/audit?event=tool_call&limit=100`, {
            headers: { authorization: `Bearer ${TOKEN}` },
          });
          const { entries } = (await r.json()) as { entries: { inputHash: string | null }[] };
          return entries.length >= answered.length ? entries : null;
        },
        { what: 'an audit row for each answered call', timeoutMs: 10_000 },
      );
      const stored = new Set(rows.map((r) => r.inputHash));
      expect(answered.filter((a) => !stored.has(inputHash(a)))).toEqual([]);
      expect(rows).toHaveLength(answered.length);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
