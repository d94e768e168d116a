// Two builds of boternity side by side, measured so that a shared, noisy machine hits both
// alike (issue 20): `bnity serve` from each checkout at once, one stdio upstream each (the
// harness's upstream.mjs: `echo` and `bytes`), one SDK client alternating calls between them
// (lib/paired.mjs). Per round: each service's own CPU a call (the schedstat of every thread
// of its process, not its upstream) and its p50; then the medians and the spread of the B/A
// ratios. Run it with the same build twice to see the method's own spread (about ±3 % on the
// median of 16 rounds here).
// Run: node bench/paired-builds.mjs DIR_A DIR_B   (each a checkout with a build: bin/, dist/)
//   ROUNDS=8 CALLS=1000 a side a round, WARMUP=300, TOOL=echo|bytes (bytes: a 64 KiB reply),
//   WARMTOOL (default TOOL) for the warm-up calls, NODE_A / NODE_B extra node flags,
//   UPSTREAM: the upstream to copy and run (default ../shared/bench/upstream.mjs)
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pairedRounds, pairedSummary } from './lib/paired.mjs';
import { spawnServe } from './lib/spawn-serve.mjs';

const [A, B] = process.argv.slice(2);
if (!A || !B) throw new Error('usage: node bench/paired-builds.mjs DIR_A DIR_B');
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const CALLS = Number(process.env.CALLS ?? 1000);
const WARMUP = Number(process.env.WARMUP ?? 300);
const TOOL = process.env.TOOL ?? 'echo';
const WARMTOOL = process.env.WARMTOOL ?? TOOL;
// The harness's upstream, copied under bench/results/ so that it resolves the SDK from this
// checkout's node_modules (the harness folder has none of its own).
const here = dirname(fileURLToPath(import.meta.url));
const UPSTREAM = join(here, 'results', 'paired-upstream.mjs');
mkdirSync(dirname(UPSTREAM), { recursive: true });
copyFileSync(process.env.UPSTREAM ?? resolve(here, '../../shared/bench/upstream.mjs'), UPSTREAM);
const TOKEN = 'bench-token';

/** CPU of every thread of `pid`, in ms (schedstat: nanoseconds, not 10 ms ticks). */
const threadsCpuMs = (pid) => {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return ns / 1e6;
};

async function open(dir, nodeArgs) {
  const serve = await spawnServe({
    config: { mcpServers: { up: { command: process.execPath, args: [UPSTREAM] } } },
    token: TOKEN,
    nodeArgs,
    bin: join(resolve(dir), 'bin', 'bnity.js'),
  });
  const client = new Client({ name: 'paired-builds', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { tools } = await client.listTools();
    if (tools.some((t) => t.name === 'up__echo')) return { serve, client };
    if (Date.now() > deadline) {
      await serve.stop();
      throw new Error(`${dir}: the upstream ${UPSTREAM} gave no up__echo tool within 20 s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const text = 'y'.repeat(64);
const argsOf = (tool) => (tool === 'bytes' ? { n: 65536 } : { text });
const call = async (side, tool = TOOL) => {
  const t = performance.now();
  const r = await side.client.callTool({ name: `up__${tool}`, arguments: argsOf(tool) });
  if (r.isError) throw new Error(`${tool} failed: ${JSON.stringify(r.content).slice(0, 200)}`);
  return performance.now() - t;
};
const flags = (value) => (value ? value.split(' ') : []);
const a = await open(A, flags(process.env.NODE_A));
const b = await open(B, flags(process.env.NODE_B));
let rows = [];
try {
  for (let i = 0; i < WARMUP; i++) {
    await call(a, WARMTOOL);
    await call(b, WARMTOOL);
  }
  rows = await pairedRounds({
    a,
    b,
    rounds: ROUNDS,
    calls: CALLS,
    call: (side) => call(side),
    cpuMs: (side) => threadsCpuMs(side.serve.child.pid),
  });
} finally {
  for (const side of [a, b]) {
    await side.client.close().catch(() => undefined);
    await side.serve.stop();
  }
}
console.log(JSON.stringify({ tool: TOOL, rounds: ROUNDS, calls: CALLS, ...pairedSummary(rows) }));
