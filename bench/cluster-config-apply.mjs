// Issue 22 part 2 (ADR 040): how long a config edit made through one replica's API takes to be
// in force on another. An embedded PostgreSQL, two `bnity serve` replicas on one database
// (A seeds it); `--edits` edits (default 20) through A's API, alternately adding and removing a
// server; for each, from the moment A is sent the request: B's `config_applied` event on
// /api/events, and B's /api/servers showing the change (polled every 2 ms). Then the NOTIFY
// round trip alone between two postgres.js pools (`--notifies`, default 200).
//   npm run -s build && node bench/cluster-config-apply.mjs [--edits 20] [--notifies 200]
import { loadavg } from 'node:os';
import postgres from 'postgres';
import { spawnServe } from './lib/spawn-serve.mjs';
import { startPostgres } from './lib/start-postgres.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const edits = arg('--edits', 20);
const notifies = arg('--notifies', 200);
const token = 'bench';
const loadBefore = loadavg();

const pg = await startPostgres('bnity-cluster-bench-');
const url = await pg.createDatabase('cluster');

// A disabled entry: the edits change the config, not the processes.
const entry = { command: process.execPath, args: ['-e', '0'], enabled: false };
const replicas = [];
const stopAll = async () => {
  for (const r of replicas.splice(0)) await r.stop();
  await pg.stop();
};
try {
  const a = await spawnServe({
    config: { mcpServers: { base: entry } },
    token,
    env: {
      BOTERNITY_DATABASE_URL: url,
      BOTERNITY_REPLICA_ID: 'a',
      BOTERNITY_KEYSTORE_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    },
  });
  replicas.push(a);
  const b = await spawnServe({
    config: { mcpServers: {} },
    token,
    env: {
      BOTERNITY_DATABASE_URL: url,
      BOTERNITY_REPLICA_ID: 'b',
      BOTERNITY_KEYSTORE_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    },
  });
  replicas.push(b);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const applied = followApplied(`${b.url}/api/events`, headers);
  await applied.ready;
  const names = async () =>
    (await (await fetch(`${b.url}/api/servers`, { headers })).json()).servers.map((s) => s.name);

  const applyMs = [];
  const listMs = [];
  for (let i = 0; i < edits; i++) {
    const adding = i % 2 === 0;
    const event = applied.next();
    const t0 = performance.now();
    const res = adding
      ? await fetch(`${a.url}/api/servers`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: 'probe', ...entry }),
        })
      : await fetch(`${a.url}/api/servers/probe`, { method: 'DELETE', headers });
    if (!res.ok) throw new Error(`edit ${i}: ${res.status} ${await res.text()}`);
    await event;
    applyMs.push(performance.now() - t0);
    while ((await names()).includes('probe') !== adding) await new Promise((r) => setTimeout(r, 2));
    listMs.push(performance.now() - t0);
  }
  applied.close();
  const notifyMs = await notifyRoundTrips(url, notifies);
  console.log(
    JSON.stringify(
      {
        edits,
        editToAppliedOnB: summary(applyMs),
        editToListedOnB: summary(listMs),
        notifyRoundTrip: { n: notifies, ...summary(notifyMs) },
        loadavg: { before: loadBefore.map(round), after: loadavg().map(round) },
      },
      null,
      2,
    ),
  );
} finally {
  await stopAll();
}

/** B's `config_applied` events on /api/events: `next()` resolves at the next one. */
function followApplied(eventsUrl, headers) {
  const controller = new AbortController();
  const waiters = [];
  let readyResolve;
  const ready = new Promise((r) => {
    readyResolve = r;
  });
  void (async () => {
    const res = await fetch(eventsUrl, {
      headers: { ...headers, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    readyResolve();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (/^event: config_applied$/m.test(block)) waiters.shift()?.();
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted at the end
    }
  })();
  return {
    ready,
    next: () => new Promise((resolve) => waiters.push(resolve)),
    close: () => controller.abort(),
  };
}

/** `n` NOTIFYs from one pool to a LISTEN on another, one at a time: each round trip in ms. */
async function notifyRoundTrips(databaseUrl, n) {
  const sender = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const receiver = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  let resolveOne = () => undefined;
  await receiver.listen('bnity.bench', () => resolveOne());
  const times = [];
  for (let i = 0; i < n; i++) {
    const got = new Promise((r) => {
      resolveOne = r;
    });
    const t0 = performance.now();
    await sender.notify('bnity.bench', String(i));
    await got;
    times.push(performance.now() - t0);
  }
  await sender.end();
  await receiver.end();
  return times;
}

function summary(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(sorted.at(-1)) };
}

function round(x) {
  return Math.round(x * 100) / 100;
}
