// The harness's 64 KiB window taken apart by process (issue 20, docs/performance.md,
// "thirteenth round"). Each round drives a fresh service of BUILD and a fresh direct-http
// server (the harness's upstream with `--http`) through the harness's order with no pause —
// 300 `echo` calls, 2,000 more, 4,000 at 16 in flight, 300 `tools/list` — then 200 calls of
// `bytes` (64 KiB): the cold window the harness measures. Then WARM_CALLS more long answers
// and a warm window of the same size. After every call of a window it reads the on-CPU time
// of the service's main thread, of its stdio child's and of direct-http's server
// (`/proc/…/schedstat`) and the client's own (`process.cpuUsage()`); it prints each window's
// medians a call and writes them to bench/results/window-processes-<time>.json. With
// PREWARM=N the service (and its child) answer N long answers before the echo phases: the
// most any warm-up of the service could buy. The two targets run one after the other in
// each round, the first swapped every round.
// Run: node bench/window-processes.mjs [BUILD]   (a checkout with a build; default .)
//   ROUNDS=3, WINDOW=200, WARM_CALLS=1500, PREWARM=0,
//   UPSTREAM: the upstream to copy and run (default ../shared/bench/upstream.mjs)
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { closeBuild, freePort, harnessUpstream, leanFetch, openBuild, timedCall } from './lib/build-side.mjs';
import { median } from './lib/measure.mjs';

const BUILD = process.argv[2] ?? '.';
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WINDOW = Number(process.env.WINDOW ?? 200);
const WARM_CALLS = Number(process.env.WARM_CALLS ?? 1500);
const PREWARM = Number(process.env.PREWARM ?? 0);
const UPSTREAM = harnessUpstream();

/** On-CPU time of one thread in µs. */
const threadUs = (pid, tid = pid) =>
  Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e3;
const clientUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** The harness's order before its 64 KiB phase, with no pause. */
async function harnessOrder(call, list) {
  for (let i = 0; i < 2300; i++) await call('echo');
  let next = 0;
  const worker = async () => {
    while (next < 4000) {
      next += 1;
      await call('echo');
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  for (let i = 0; i < 300; i++) await list();
}

/** One window of `bytes` calls: medians a call of the latency and of each watched thread. */
async function window(call, threads) {
  const rows = [];
  let before = threads.map(([, pid]) => threadUs(pid));
  let client = clientUs();
  for (let i = 0; i < WINDOW; i++) {
    const ms = await call('bytes');
    const after = threads.map(([, pid]) => threadUs(pid));
    const clientAfter = clientUs();
    rows.push({
      ms,
      client: clientAfter - client,
      ...Object.fromEntries(threads.map(([name], k) => [name, after[k] - before[k]])),
    });
    before = after;
    client = clientAfter;
  }
  const keys = ['ms', ...threads.map(([name]) => name), 'client'];
  return Object.fromEntries(keys.map((k) => [k, median(rows.map((r) => r[k]))]));
}

async function boternity() {
  const side = await openBuild(BUILD, { upstream: UPSTREAM, name: 'window-processes', fetch: leanFetch });
  try {
    const call = (tool) => timedCall(side, tool);
    for (let i = 0; i < PREWARM; i++) await call('bytes');
    await harnessOrder(call, () => side.client.listTools());
    const pid = side.serve.child.pid;
    const child = Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]);
    const threads = [
      ['main', pid],
      ['child', child],
    ];
    const cold = await window(call, threads);
    for (let i = 0; i < WARM_CALLS; i++) await call('bytes');
    return { cold, warm: await window(call, threads) };
  } finally {
    await closeBuild(side);
  }
}

async function direct() {
  const port = await freePort();
  const server = spawn(process.execPath, [UPSTREAM, '--http', String(port)], { stdio: 'ignore' });
  const client = new Client({ name: 'window-processes', version: '1' });
  try {
    for (let tries = 0; ; tries++) {
      try {
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { fetch: leanFetch }),
        );
        break;
      } catch (error) {
        if (tries > 100) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const call = async (tool) => {
      const t = performance.now();
      await client.callTool({ name: tool, arguments: tool === 'bytes' ? { n: 65536 } : { text: 'hello' } });
      return performance.now() - t;
    };
    await harnessOrder(call, () => client.listTools());
    const threads = [['main', server.pid]];
    const cold = await window(call, threads);
    for (let i = 0; i < WARM_CALLS; i++) await call('bytes');
    return { cold, warm: await window(call, threads) };
  } finally {
    await client.close().catch(() => undefined);
    server.kill();
  }
}

const fmt = (w) =>
  Object.entries(w)
    .map(([k, v]) => `${k} ${k === 'ms' ? v.toFixed(3) : Math.round(v)}`)
    .join('  ');
const rounds = [];
for (let round = 0; round < ROUNDS; round++) {
  const targets =
    round % 2 === 0
      ? [
          ['boternity', boternity],
          ['direct-http', direct],
        ]
      : [
          ['direct-http', direct],
          ['boternity', boternity],
        ];
  const row = {};
  for (const [name, run] of targets) {
    row[name] = await run();
    console.log(`round ${round + 1} ${name.padEnd(11)} cold: ${fmt(row[name].cold)} | warm: ${fmt(row[name].warm)}`);
  }
  rounds.push(row);
}
const summary = {};
for (const name of ['boternity', 'direct-http'])
  for (const phase of ['cold', 'warm'])
    summary[`${name} ${phase}`] = Object.fromEntries(
      Object.keys(rounds[0][name][phase]).map((k) => [k, median(rounds.map((r) => r[name][phase][k]))]),
    );
for (const [k, w] of Object.entries(summary)) console.log(`median ${k.padEnd(16)} ${fmt(w)}`);
const out = join(
  resolve(dirname(fileURLToPath(import.meta.url)), 'results'),
  `window-processes-${new Date().toISOString().replace(/[:.]/g, '')}.json`,
);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify({ build: BUILD, window: WINDOW, warmCalls: WARM_CALLS, prewarm: PREWARM, rounds, summary }, null, 2),
);
console.log(`written to ${out}`);
