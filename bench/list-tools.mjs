#!/usr/bin/env node
// tools/list with many aggregated tools (issue 8): SERVERS stdio upstreams (default 10) of
// TOOLS tools each (default 200) behind `bnity serve`, listed LISTS times (default 500)
// through /mcp by a lean client: raw HTTP on one kept-alive connection, the body read to
// its end but not parsed while timed (JSON.parse and a check on every 50th reply, outside
// the timing), so the figure is what the gateway costs plus the loopback transfer, not the
// client's own zod. Prints p50/p90/p99, reply size and the service's CPU per list; writes
// bench/results/list-tools-<timestamp>.json. NODE_ARGS passes flags to the service's node.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTicks, percentile } from './lib/measure.mjs';
import { spawnServe } from './lib/spawn-serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVERS = Number(process.env.SERVERS ?? 10);
const TOOLS = Number(process.env.TOOLS ?? 200);
const LISTS = Number(process.env.LISTS ?? 500);
const WARMUP = Number(process.env.WARMUP ?? 50);
const TOKEN = 'bench-token';

const server = join(root, 'bench', 'many-tools-server.mjs');
const mcpServers = Object.fromEntries(
  Array.from({ length: SERVERS }, (_, i) => [
    `s${i}`,
    { command: process.execPath, args: [server], env: { TOOLS: String(TOOLS) } },
  ]),
);
// NODE_ARGS: flags for the service's node (e.g. --cpu-prof), space-separated.
const nodeArgs = (process.env.NODE_ARGS ?? '').split(' ').filter(Boolean);
const service = await spawnServe({ config: { mcpServers }, token: TOKEN, nodeArgs });
const { child } = service;
const url = new URL(`${service.url}/mcp`);
let agent = new Agent({ keepAlive: true, maxSockets: 1 });
let session = null;

/** POST one JSON-RPC message; resolves with the raw reply text (not parsed). */
const post = (body) =>
  postOnce(body).catch((error) => {
    // A kept-alive connection the server closed as we reused it: send again, once.
    if (error.code !== 'ECONNRESET') throw error;
    return postOnce(body);
  });
const postOnce = (body) =>
  new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...(session ? { 'mcp-session-id': session } : {}),
      },
    });
    req.on('response', (res) => {
      session ??= res.headers['mcp-session-id'] ?? null;
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    req.on('error', reject);
    req.end(body);
  });
/** The upstreams' tools in a reply (/mcp also lists boternity's own bot tools). */
const toolsOf = (text) => {
  const json = text.startsWith('{') ? text : /^data: (\{.*\})$/m.exec(text)?.[1];
  return JSON.parse(json).result.tools.filter((t) => /^s\d+__/.test(t.name));
};

try {
  await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'list-bench', version: '1' } },
    }),
  );
  await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const t0 = performance.now();
  for (;;) {
    if (toolsOf(await post(list)).length === SERVERS * TOOLS) break;
    if (performance.now() - t0 > 120_000) throw new Error('upstreams did not all connect within 120 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  // First sight of 2,000 tools keeps the service busy a while (pins, their checks): time
  // the steady state, once it is idle (under 5% of a core over half a second).
  for (let quiet = 0; quiet < 3 && performance.now() - t0 < 180_000; ) {
    const before = cpuTicks(child.pid);
    await new Promise((r) => setTimeout(r, 500));
    quiet = cpuTicks(child.pid) - before <= 2 ? quiet + 1 : 0;
  }
  const cpuMsUntilIdle = cpuTicks(child.pid) * 10;
  const msUntilIdle = performance.now() - service.t0;
  // The server drops a kept-alive connection idle for 5 s: start on a fresh one.
  agent.destroy();
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < WARMUP; i++) await post(list);
  const samples = [];
  let bytes = 0;
  const cpu0 = cpuTicks(child.pid);
  for (let i = 0; i < LISTS; i++) {
    const s = performance.now();
    const text = await post(list);
    samples.push(performance.now() - s);
    bytes = Buffer.byteLength(text);
    if (i % 50 === 0 && toolsOf(text).length !== SERVERS * TOOLS) throw new Error(`reply ${i} lacks tools`);
  }
  const cpuMs = (cpuTicks(child.pid) - cpu0) * 10;
  samples.sort((a, b) => a - b);
  const round = (x) => Math.round(x * 1000) / 1000;
  const results = {
    at: new Date().toISOString(),
    node: process.version,
    tools: SERVERS * TOOLS,
    servers: SERVERS,
    lists: LISTS,
    replyBytes: bytes,
    p50Ms: round(percentile(samples, 50)),
    p90Ms: round(percentile(samples, 90)),
    p99Ms: round(percentile(samples, 99)),
    serviceCpuMsPerList: round(cpuMs / LISTS),
    // From the spawn until idle after the first sight of every tool (start, connect, pins).
    serviceCpuMsUntilIdle: cpuMsUntilIdle,
    msUntilIdle: Math.round(msUntilIdle),
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  const file = join(root, 'bench', 'results', `list-tools-${results.at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
  console.log(`written to ${file}`);
} finally {
  agent.destroy();
  await service.stop();
}
