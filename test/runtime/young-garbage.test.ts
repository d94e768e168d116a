/**
 * What a request leaves behind dies in the young generation (ADR 047). V8's young-generation
 * collector keeps an object whose map only weak transitions reach (on Node 20: an object made
 * by spreading another and then given one more property, or one with getters made per call,
 * as zod 4.6's failed `safeParse` result is), and with it all it references: such objects on
 * the request path took each request's message, headers and response to the old generation.
 * Measured on a real `bnity serve` with V8's own GC trace.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { leanFetch } from '../support/mcp-client.js';
import { spawnServe } from '../support/serve-process.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('young-garbage-');

/** Bytes V8 promoted to the old generation in its scavenges, from `--trace-gc-nvp` lines. */
const promotedIn = (trace: string): { bytes: number; scavenges: number } => {
  let bytes = 0;
  let scavenges = 0;
  for (const line of trace.split('\n')) {
    if (!line.includes(' gc=s ')) continue;
    scavenges += 1;
    bytes += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
  }
  return { bytes, scavenges };
};

describe('a request’s garbage stays young', () => {
  it('bnity serve answers pings without taking each one to the old generation', { timeout: 60_000 }, async () => {
    const home = await tempDir();
    writeFileSync(join(home, 'boternity.json'), JSON.stringify({ mcpServers: {} }));
    const serve = await spawnServe(
      ['--port', '0', '--home', home, '--config', join(home, 'boternity.json')],
      { BOTERNITY_ADMIN_TOKEN: 'young-token' },
      undefined,
      ['--trace-gc-nvp'],
    );
    const client = new Client({ name: 'young-garbage', version: '1' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
          requestInit: { headers: { authorization: 'Bearer young-token' } },
          fetch: leanFetch,
        }),
      );
      for (let i = 0; i < 1_000; i++) await client.ping();
      const from = serve.stdout().length;
      // About 15 scavenges (25 in 4,000 pings): enough for the average, in half the time.
      const pings = 2_500;
      for (let i = 0; i < pings; i++) await client.ping();
      const { bytes, scavenges } = promotedIn(serve.stdout().slice(from));
      expect(scavenges).toBeGreaterThan(3);
      // About 3.3 KB a ping: 2.7 KB of it zod 4.6's failed checks, which keep each message
      // (ADR 047), the rest the ping's audit row, queued up to a second for its batch (ADR 056);
      // 6.3 KB with the transport's spread objects of before, which kept each ping's headers and
      // response too.
      expect(bytes / pings).toBeLessThan(4_000);
    } finally {
      await client.close();
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});
