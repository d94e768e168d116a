// Two builds of boternity side by side, measured so that a shared, noisy machine hits both
// alike (issue 20): `bnity serve` from each checkout at once, one stdio upstream each (the
// harness's upstream.mjs: `echo` and `bytes`), one SDK client alternating calls between them
// (A, B, A, B…; the first side swaps each round). Per round: each service's own CPU a call
// (the schedstat of every thread of its process, not its upstream) and its p50; then the
// medians and the spread of the B/A ratios. Run it twice with the same build to see the
// method's own spread (about ±3 % on the median of 16 rounds here).
// Run: node bench/paired-builds.mjs DIR_A DIR_B   (each a checkout with a build: bin/, dist/)
//   ROUNDS=8 CALLS=1000 a side a round, WARMUP=300, TOOL=echo|bytes (bytes: a 64 KiB reply),
//   WARMTOOL (default TOOL) for the warm-up calls, NODE_A / NODE_B extra node flags,
//   UPSTREAM (default ../shared/bench/upstream.mjs)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { median } from './lib/measure.mjs';

const [A, B] = process.argv.slice(2);
if (!A || !B) throw new Error('usage: node bench/paired-builds.mjs DIR_A DIR_B');
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const CALLS = Number(process.env.CALLS ?? 1000);
const WARMUP = Number(process.env.WARMUP ?? 300);
const TOOL = process.env.TOOL ?? 'echo';
const WARMTOOL = process.env.WARMTOOL ?? TOOL;
const here = dirname(fileURLToPath(import.meta.url));
const UPSTREAM = process.env.UPSTREAM ?? resolve(here, '../../shared/bench/upstream.mjs');
const TOKEN = 'bench-token';

/** CPU of every thread of `pid`, in ms (schedstat: nanoseconds, not 10 ms ticks). */
const cpuMs = (pid) => {
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
  const home = mkdtempSync(join(tmpdir(), 'paired-'));
  const config = join(home, 'boternity.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { up: { command: process.execPath, args: [UPSTREAM] } } }));
  const child = spawn(
    process.execPath,
    [...nodeArgs, join(dir, 'bin/bnity.js'), 'serve', '--port', '0', '--config', config],
    {
      env: { ...process.env, BOTERNITY_HOME: home, BOTERNITY_ADMIN_TOKEN: TOKEN, BOTERNITY_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  const url = await new Promise((resolveUrl, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /control API\s+(http:\/\/\S+)\/api\/servers/.exec(out);
      if (m) resolveUrl(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  const client = new Client({ name: 'paired-builds', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  for (;;) {
    const { tools } = await client.listTools();
    if (tools.some((t) => t.name === 'up__echo')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, client, home };
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
const rows = [];
try {
  for (let i = 0; i < WARMUP; i++) {
    await call(a, WARMTOOL);
    await call(b, WARMTOOL);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [a, b] : [b, a];
    const lat = new Map(order.map((s) => [s, []]));
    const cpu0 = new Map(order.map((s) => [s, cpuMs(s.child.pid)]));
    for (let i = 0; i < CALLS; i++) for (const side of order) lat.get(side).push(await call(side));
    const cpu = (s) => ((cpuMs(s.child.pid) - cpu0.get(s)) * 1000) / CALLS;
    const row = { cpuA: cpu(a), cpuB: cpu(b), p50A: median(lat.get(a)), p50B: median(lat.get(b)) };
    rows.push({ ...row, cpu: row.cpuB / row.cpuA, p50: row.p50B / row.p50A });
    process.stderr.write(`round ${round + 1}: ${JSON.stringify(rows.at(-1))}\n`);
  }
} finally {
  for (const side of [a, b]) {
    await side.client.close().catch(() => undefined);
    side.child.kill('SIGTERM');
    if (side.child.exitCode === null) await new Promise((r) => side.child.once('exit', r));
    rmSync(side.home, { recursive: true, force: true });
  }
}
const col = (k) => rows.map((r) => r[k]);
console.log(
  JSON.stringify({
    tool: TOOL,
    rounds: ROUNDS,
    calls: CALLS,
    cpuUsA: median(col('cpuA')),
    cpuUsB: median(col('cpuB')),
    cpuRatio: median(col('cpu')),
    cpuRatioSpread: [Math.min(...col('cpu')), Math.max(...col('cpu'))],
    p50MsA: median(col('p50A')),
    p50MsB: median(col('p50B')),
    p50Ratio: median(col('p50')),
    p50RatioSpread: [Math.min(...col('p50')), Math.max(...col('p50'))],
  }),
);
