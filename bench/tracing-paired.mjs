// Tracing's price on the call path (issue 21), measured so that a shared, noisy machine hits
// both sides alike: two `bnity serve` run at once, one with traces off and one sending every
// span (sampleRatio 1) to a local OTLP/HTTP sink that answers 200; one client alternates
// `echo` calls between them (off, on, off, on…; the first side swaps each round). Per round:
// each service's own CPU a call (/proc, its process only, not its upstream) and its p50,
// over the same window; then the medians and the spread of the on/off ratios.
// Run: node bench/tracing-paired.mjs   (ROUNDS=10, CALLS=1500 a side a round, WARMUP=400,
// UPSTREAM=path of a stdio server with an `echo` tool: test/support/tiny-server.mjs;
// SAME=1 runs both sides with traces off, to see the method's own bias; PROF=dir writes each
// service's CPU profile under dir/off and dir/on)
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cpuMs } from './lib/measure.mjs';
import { pairedRounds, pairedSummary } from './lib/paired.mjs';
import { spawnServe } from './lib/spawn-serve.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const CALLS = Number(process.env.CALLS ?? 1500);
const WARMUP = Number(process.env.WARMUP ?? 400);
const UPSTREAM = process.env.UPSTREAM ?? new URL('../test/support/tiny-server.mjs', import.meta.url).pathname;
const TOKEN = 'bench-token';

let received = 0;
const sink = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received += 1;
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
}).listen(0, '127.0.0.1');
await new Promise((r) => sink.once('listening', r));
const endpoint = `http://127.0.0.1:${sink.address().port}`;

const servers = { up: { command: process.execPath, args: [UPSTREAM] } };
async function open(telemetry) {
  // PROF=dir: each service writes a CPU profile there (dir/on, dir/off) when it stops.
  const prof = process.env.PROF ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.PROF}/${telemetry ? 'on' : 'off'}`] : [];
  const serve = await spawnServe({
    config: { mcpServers: servers, ...(telemetry ? { telemetry } : {}) },
    token: TOKEN,
    nodeArgs: prof,
  });
  const client = new Client({ name: 'tracing-paired', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  for (;;) {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name.endsWith('echo'))?.name;
    if (tool) return { serve, client, tool };
    await new Promise((r) => setTimeout(r, 100));
  }
}
const text = 'y'.repeat(64);
const call = async (side) => {
  const t = performance.now();
  const r = await side.client.callTool({ name: side.tool, arguments: { text } });
  if (r.isError) throw new Error(`echo failed: ${JSON.stringify(r.content)}`);
  return performance.now() - t;
};

const off = await open(null);
const on = await open(process.env.SAME === '1' ? null : { enabled: true, endpoint, sampleRatio: 1 });
let rows = [];
try {
  for (let i = 0; i < WARMUP; i++) {
    await call(off);
    await call(on);
  }
  rows = await pairedRounds({
    a: off,
    b: on,
    rounds: ROUNDS,
    calls: CALLS,
    call,
    cpuMs: (side) => cpuMs(side.serve.child.pid),
  });
} finally {
  for (const side of [off, on]) {
    await side.client.close().catch(() => undefined);
    await side.serve.stop();
  }
  sink.close();
}
const s = pairedSummary(rows);
const out = {
  rounds: ROUNDS,
  calls: CALLS,
  exports: received,
  cpuUsOff: s.cpuUsA,
  cpuUsOn: s.cpuUsB,
  p50MsOff: s.p50MsA,
  p50MsOn: s.p50MsB,
  cpuRatio: s.cpuRatio,
  cpuRatioSpread: s.cpuRatioSpread,
  p50Ratio: s.p50Ratio,
  p50RatioSpread: s.p50RatioSpread,
};
console.log(JSON.stringify(out));
