#!/usr/bin/env node
// The two protocol eras through /mcp (issue 12, ADR 013): the SDK's v2 client calls the
// `echo` tool of one stdio upstream CALLS times (default 2,000, after WARMUP) through
// `bnity serve` on 2025-11-25 (one session) and on 2026-07-28 (one stateless POST per
// call), and against a direct v2 server (bench/modern-direct-server.mjs) for what the SDK
// costs with no gateway. Sequential calls give p50/p90; CONCURRENCY (default 8) callers give
// calls/s; the server process's CPU per call is read from /proc. Writes
// bench/results/modern-era-<timestamp>.json.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cpuTicks, percentile } from './lib/measure.mjs';
import { spawnServe } from './lib/spawn-serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CALLS = Number(process.env.CALLS ?? 2_000);
const WARMUP = Number(process.env.WARMUP ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const TOKEN = 'bench-token';

// The v2 client adds an abort listener per request to one long-lived signal (client side,
// not the service): count Node's warnings about it per row instead of printing thousands.
let clientListenerWarnings = 0;
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'MaxListenersExceededWarning') clientListenerWarnings += 1;
  else console.warn(warning);
});
const round = (x, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

async function connect(url, mode) {
  const client = new Client({ name: `bench-${JSON.stringify(mode)}`, version: '1' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
  );
  return client;
}

/** Time `CALLS` calls of `name` one after another, then with CONCURRENCY callers; CPU of `pid` over both. */
async function measure(label, url, mode, name, pid) {
  clientListenerWarnings = 0;
  const client = await connect(url, mode);
  const call = (i) => client.callTool({ name, arguments: { text: `call ${i}` } });
  for (let i = 0; i < WARMUP; i++) await call(i);
  const cpu0 = cpuTicks(pid);
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await call(i);
    times.push(performance.now() - t);
  }
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CALLS) await call(next++);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpuMs = (cpuTicks(pid) - cpu0) * 10;
  const era = client.getProtocolEra();
  await client.close();
  times.sort((a, b) => a - b);
  return {
    label,
    era,
    p50Ms: round(percentile(times, 50)),
    p90Ms: round(percentile(times, 90)),
    callsPerSecond: Math.round(CALLS / seconds),
    serverCpuMsPerCall: round(cpuMs / (2 * CALLS)),
    clientListenerWarnings,
  };
}

const tiny = join(root, 'test', 'support', 'tiny-server.mjs');
const service = await spawnServe({
  config: { mcpServers: { tiny: { command: process.execPath, args: [tiny] } } },
  token: TOKEN,
});
const direct = spawn(process.execPath, [join(root, 'bench', 'modern-direct-server.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const directUrl = await new Promise((resolve) => {
  let out = '';
  direct.stdout.on('data', (d) => {
    out += d;
    const m = /direct (\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
});
const rows = [];
try {
  const mcp = `${service.url}/mcp`;
  rows.push(await measure('boternity /mcp, 2025-11-25', mcp, 'legacy', 'tiny__echo', service.child.pid));
  rows.push(await measure('boternity /mcp, 2026-07-28', mcp, { pin: '2026-07-28' }, 'tiny__echo', service.child.pid));
  rows.push(await measure('direct v2 server, 2026-07-28', directUrl, { pin: '2026-07-28' }, 'echo', direct.pid));
} finally {
  direct.kill('SIGTERM');
  await service.stop();
}
console.table(rows);
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const file = join(root, 'bench', 'results', `modern-era-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ calls: CALLS, concurrency: CONCURRENCY, node: process.version, rows }, null, 2)}\n`,
);
console.log(`written to ${file}`);
