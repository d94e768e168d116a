/**
 * What a request leaves behind dies in the young generation (ADR 047). V8's young-generation
 * collector keeps an object whose map only weak transitions reach (on Node 20: an object made
 * by spreading another and then given one more property, or one with getters made per call,
 * as zod 4.6's failed `safeParse` result is), and with it all it references: such objects on
 * the request path took each request's message, headers and response to the old generation.
 * Measured on a real `bnity serve` with V8's own GC trace, and on the SDK's message check.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
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

const checkScript = `
import { getHeapSpaceStatistics } from 'node:v8';
import { isJSONRPCErrorResponse, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';
const old = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
let seen = 0;
const request = (i) => {
  const message = { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { pad: Array.from({ length: 40 }, (_, k) => ({ k })) } } };
  // What the SDK's Protocol checks of every request it is handed: both fail.
  if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) seen++;
};
for (let i = 0; i < 20_000; i++) request(i);
globalThis.gc();
const before = old();
for (let i = 0; i < 100_000; i++) {
  request(i);
  if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
}
globalThis.gc({ type: 'minor' });
globalThis.gc({ type: 'minor' });
process.stdout.write(JSON.stringify({ grewMb: (old() - before) / 2 ** 20, seen }));
`;

describe('a request’s garbage stays young', () => {
  it('a failing message check of the SDK keeps nothing of the message (zod below 4.6)', { timeout: 30_000 }, () => {
    const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', checkScript], {
      encoding: 'utf8',
      cwd: `${import.meta.dirname}/../..`,
    });
    expect(child.stderr).toBe('');
    // With zod 4.6.7: about 18 MB.
    expect((JSON.parse(child.stdout) as { grewMb: number }).grewMb).toBeLessThan(2);
  });

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
        }),
      );
      for (let i = 0; i < 1_000; i++) await client.ping();
      const from = serve.stdout().length;
      const pings = 4_000;
      for (let i = 0; i < pings; i++) await client.ping();
      const { bytes, scavenges } = promotedIn(serve.stdout().slice(from));
      expect(scavenges).toBeGreaterThan(3);
      // About 560 bytes a ping; 2.3 KB with the transport's spread objects of before ADR 047,
      // 6 KB with zod 4.6 as well (every ping's message, headers and response).
      expect(bytes / pings).toBeLessThan(1_200);
    } finally {
      await client.close();
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});
