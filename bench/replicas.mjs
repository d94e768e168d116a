/**
 * ADR 041's measurements on an embedded PostgreSQL: the cost of one heartbeat (the
 * `INSERT … ON CONFLICT UPDATE` each replica writes every `replicas.heartbeatMs`), and the
 * takeover of the run-once jobs' leader: two `bnity serve` replicas (dist/, `npm run build`
 * first) with default settings, the leader killed with SIGKILL, timed until the survivor's
 * `GET /api/cluster` names a new leader; the killed one is started again each round.
 *   node bench/replicas.mjs [--rounds 7]
 * @module
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { startPostgres } from './lib/start-postgres.mjs';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 7;
const BNITY = fileURLToPath(new URL('../bin/bnity.js', import.meta.url));
const { url, dir, stop } = await startPostgres('bnity-replicas-bench-');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const TOKEN = 'bench';
const env = {
  ...process.env,
  BOTERNITY_ADMIN_TOKEN: TOKEN,
  BOTERNITY_DATABASE_URL: url,
  BOTERNITY_KEYSTORE_KEY: 'ab'.repeat(32),
  BOTERNITY_LOG_LEVEL: 'warn',
};
const config = join(dir, 'boternity.json');
await writeFile(config, JSON.stringify({ mcpServers: {} }));
const start = (id) =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BNITY, 'serve', '--port', '0', '--config', config, '--home', join(dir, id)],
      {
        env: { ...env, BOTERNITY_REPLICA_ID: id },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const match = /control API\s+(http:\/\/\S+)\/api\/servers/.exec(out);
      if (match) resolve({ id, child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`replica ${id} exited with ${code}`)));
  });
const view = async (replica) =>
  (await fetch(`${replica.url}/api/cluster`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();

try {
  const replicas = { a: await start('a'), b: await start('b') };
  // Heartbeats: the statement as the replicas write it (their rows exist now).
  const sql = postgres(url, { max: 4, onnotice: () => {} });
  const beats = [];
  for (let round = 0; round < 5; round++) {
    const n = 2_000;
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const at = Date.now();
      await sql`insert into replicas (id, started_at, last_heartbeat, stopped_at, version, address, leader)
        values ('bench', ${at}, ${at}, null, '0.1.0', 'http://bench:7777', 0)
        on conflict (id) do update set last_heartbeat = ${at}, stopped_at = null, version = '0.1.0', address = 'http://bench:7777', leader = 0`;
    }
    const used = process.cpuUsage(cpu);
    beats.push({ ms: (performance.now() - t0) / n, cpuUs: (used.user + used.system) / n });
  }
  await sql.end();
  // Takeover.
  const takeover = [];
  for (let round = 0; round < rounds; round++) {
    const leader = (await view(replicas.b)).leader;
    const survivor = leader === 'a' ? replicas.b : replicas.a;
    const t0 = performance.now();
    replicas[leader].child.kill('SIGKILL');
    for (;;) {
      const seen = await view(survivor).catch(() => null);
      if (seen?.leader && seen.leader !== leader) break;
      await sleep(20);
    }
    takeover.push(Math.round(performance.now() - t0));
    replicas[leader] = await start(leader);
    await sleep(500);
  }
  for (const replica of Object.values(replicas)) replica.child.kill('SIGTERM');
  console.log(
    JSON.stringify({
      heartbeat: {
        msMedian: +median(beats.map((b) => b.ms)).toFixed(3),
        cpuUsMedian: Math.round(median(beats.map((b) => b.cpuUs))),
      },
      takeoverMs: takeover,
      takeoverMedianMs: median(takeover),
    }),
  );
} finally {
  await stop();
}
