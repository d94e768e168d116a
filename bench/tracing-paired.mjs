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
import { cpuMs, median } from './lib/measure.mjs';
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
const rows = [];
try {
  for (let i = 0; i < WARMUP; i++) {
    await call(off);
    await call(on);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [off, on] : [on, off];
    const lat = new Map(order.map((s) => [s, []]));
    const cpu0 = new Map(order.map((s) => [s, cpuMs(s.serve.child.pid)]));
    for (let i = 0; i < CALLS; i++) for (const side of order) lat.get(side).push(await call(side));
    const cpu = (s) => ((cpuMs(s.serve.child.pid) - cpu0.get(s)) * 1000) / CALLS;
    const row = { cpuOff: cpu(off), cpuOn: cpu(on), p50Off: median(lat.get(off)), p50On: median(lat.get(on)) };
    rows.push({ ...row, cpu: row.cpuOn / row.cpuOff, p50: row.p50On / row.p50Off });
    process.stderr.write(`round ${round + 1}: ${JSON.stringify(rows.at(-1))}\n`);
  }
} finally {
  for (const side of [off, on]) {
    await side.client.close().catch(() => undefined);
    await side.serve.stop();
  }
  sink.close();
}
const col = (k) => rows.map((r) => r[k]);
const out = {
  rounds: ROUNDS,
  calls: CALLS,
  exports: received,
  cpuUsOff: median(col('cpuOff')),
  cpuUsOn: median(col('cpuOn')),
  p50MsOff: median(col('p50Off')),
  p50MsOn: median(col('p50On')),
  cpuRatio: median(col('cpu')),
  cpuRatioSpread: [Math.min(...col('cpu')), Math.max(...col('cpu'))],
  p50Ratio: median(col('p50')),
  p50RatioSpread: [Math.min(...col('p50')), Math.max(...col('p50'))],
};
console.log(JSON.stringify(out));
