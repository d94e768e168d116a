#!/usr/bin/env node
// Supervision figures (issues 2, 8): time from start to all-connected for the default
// config, RSS of the service with N stdio upstreams and with none (measured once the
// service has been idle SETTLE ms, default 25 s: what an operator sees, after the idle
// trim of ADR 006), their difference per connection, and time from `kill -9` of a child to
// `connected` again. Runs `bnity serve` as a real process on 127.0.0.1; writes
// bench/results/supervision-<timestamp>.json and prints a table.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServe } from './lib/spawn-serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tiny = join(root, 'test', 'support', 'tiny-server.mjs');
const N = Number(process.env.N ?? 50);
// 25 s, not 15: on a loaded machine the trim (6 s of quiet after start-up, then 6 s more
// for the young generation) came after a 15 s reading in 6 of 18 runs (ADR 015 §9).
const SETTLE = Number(process.env.SETTLE ?? 25_000);
const TOKEN = 'bench-token';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

async function startService(config) {
  const s = await spawnServe({ config, token: TOKEN });
  const get = async () =>
    (await (await fetch(`${s.url}/api/servers`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()).servers;
  return { ...s, get };
}

async function until(get, predicate, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const servers = await get();
    if (predicate(servers)) return servers;
    if (performance.now() > deadline)
      throw new Error(`timed out: ${JSON.stringify(servers.map((s) => [s.name, s.state]))}`);
    await sleep(10);
  }
}
const allConnected = (servers) => servers.length > 0 && servers.every((s) => s.state === 'connected');

const results = { at: new Date().toISOString(), node: process.version, n: N };

// 1. Default config (memory, filesystem, everything): start to all connected.
{
  const s = await startService(null);
  await until(s.get, allConnected);
  results.defaultAllConnectedMs = Math.round(performance.now() - s.t0);
  await s.stop();
}

// 2. No upstream: the service's own RSS, idle.
{
  const s = await startService({ mcpServers: {} });
  await sleep(SETTLE);
  results.idleServiceRssMb = Math.round(rssKb(s.child.pid) / 102.4) / 10;
  await s.stop();
}

// 3. N tiny stdio upstreams: time to all connected and RSS of the service.
{
  const mcpServers = Object.fromEntries(
    Array.from({ length: N }, (_, i) => [`tiny${i}`, { command: process.execPath, args: [tiny] }]),
  );
  const s = await startService({ mcpServers });
  const servers = await until(s.get, allConnected, 120_000);
  results.manyAllConnectedMs = Math.round(performance.now() - s.t0);
  await sleep(SETTLE);
  results.serviceRssMb = Math.round(rssKb(s.child.pid) / 102.4) / 10;
  results.rssMbPerConnection = Math.round(((results.serviceRssMb - results.idleServiceRssMb) / N) * 1000) / 1000;
  results.childrenRssMb = Math.round(servers.reduce((sum, x) => sum + rssKb(x.pid), 0) / 102.4) / 10;

  // 4. kill -9 of a child, ten times (each a different child): time until it is connected again.
  const samples = [];
  for (let i = 0; i < Math.min(10, N); i++) {
    const name = `tiny${i}`;
    const before = (await s.get()).find((x) => x.name === name);
    const t = performance.now();
    process.kill(before.pid, 'SIGKILL');
    await until(s.get, (list) => {
      const x = list.find((y) => y.name === name);
      return x.state === 'connected' && x.pid !== before.pid;
    });
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  results.kill9ToConnectedMs = {
    median: Math.round(samples[Math.floor(samples.length / 2)]),
    max: Math.round(samples.at(-1)),
  };
  await s.stop();
}

mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const file = join(root, 'bench', 'results', `supervision-${results.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
console.log(`written to ${file}`);
