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
import { closeBuild, harnessUpstream, openBuild, sideCpuMs, timedCall } from './lib/build-side.mjs';
import { pairedRounds, pairedSummary } from './lib/paired.mjs';

const [A, B] = process.argv.slice(2);
if (!A || !B) throw new Error('usage: node bench/paired-builds.mjs DIR_A DIR_B');
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const CALLS = Number(process.env.CALLS ?? 1000);
const WARMUP = Number(process.env.WARMUP ?? 300);
const TOOL = process.env.TOOL ?? 'echo';
const WARMTOOL = process.env.WARMTOOL ?? TOOL;
const UPSTREAM = harnessUpstream();
const open = (dir, nodeArgs) => openBuild(dir, { upstream: UPSTREAM, nodeArgs, name: 'paired-builds' });

const call = (side, tool = TOOL) => timedCall(side, tool);
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
    cpuMs: sideCpuMs,
  });
} finally {
  for (const side of [a, b]) await closeBuild(side);
}
console.log(JSON.stringify({ tool: TOOL, rounds: ROUNDS, calls: CALLS, ...pairedSummary(rows) }));
