// The chaos and soak harness (issue 11): runs `bnity serve` as a real process with a temp
// home on 127.0.0.1, talks to it over /api and /mcp with the SDK client, and measures.
// Every wait is bounded: a scenario that hangs the service still ends and says so.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const UPSTREAMS = join(ROOT, 'bench', 'chaos', 'upstreams');
export const TINY = join(ROOT, 'test', 'support', 'tiny-server.mjs');
// BNITY_BIN measures another build (e.g. a checkout of an older commit) with this harness.
const BIN = process.env.BNITY_BIN ?? join(ROOT, 'bin', 'bnity.js');
const PRELOAD = join(ROOT, 'bench', 'chaos', 'debug-preload.mjs');
const TOKEN = 'chaos-admin-token';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const round = (x, digits = 1) => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : null);

/** p-th percentile (0–100) of numbers; null for none. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** { n, p50, p95, max } of a list of milliseconds, rounded. */
export function summarize(values) {
  return {
    n: values.length,
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    max: round(values.length ? Math.max(...values) : null),
  };
}

/** Slope of y over x by least squares; null for fewer than two points. */
export function slope(points) {
  if (points.length < 2) return null;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? null : num / den;
}

/** Poll `probe` until truthy or `timeoutMs` passes; resolves with the value or null (never throws on time). */
export async function until(probe, { timeoutMs, intervalMs = 25 }) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch {
      // A probe failing (service busy or gone) is the same as "not yet".
    }
    if (performance.now() > deadline) return null;
    await sleep(intervalMs);
  }
}

/** Settle `promise` within `ms`: { value } or { error } or { timedOut: true }. */
export async function within(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error) => ({ error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A TCP port on 127.0.0.1 that is free right now. */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resident set size of a process in MB, or null when it is gone. */
export function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return round(kb / 1024);
  } catch {
    return null;
  }
}

/** utime + stime of a process in clock ticks (100 a second on Linux); 0 when it is gone. */
export function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces) start at field 3, the state.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Pids of live processes whose command line contains `marker` (zombies excluded). */
export function processesWith(marker) {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (/^State:\s+Z/m.test(readFileSync(`/proc/${name}/status`, 'utf8'))) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** A stdio upstream entry; `marker` tags its command line so leftovers can be found. */
export function stdioServer(script, marker, extra = {}) {
  return { command: process.execPath, args: [script, `--chaos-run=${marker}`], ...extra };
}

/**
 * Start `bnity serve` in a temp home with `config(marker)`, the marker being what the
 * caller tags its upstreams with (see {@link stdioServer}) so that leftovers can be found.
 * The harness-only preload adds a loopback debug port with forced-GC heap figures.
 */
export async function startService(config, { readyTimeoutMs = 30_000, home: given } = {}) {
  // A home given by the scenario (a restart on the same data) is the scenario's to remove.
  const home = given ?? mkdtempSync(join(tmpdir(), 'bnity-chaos-'));
  const marker = home;
  const configPath = join(home, 'boternity.json');
  writeFileSync(configPath, JSON.stringify(config(marker)));
  const [port, debugPort] = [await freePort(), await freePort()];
  const logPath = join(home, 'service.log');
  const log = openSync(logPath, 'a');
  const child = spawn(
    process.execPath,
    [
      ...(process.env.CHAOS_NODE_ARGS ?? '').split(' ').filter(Boolean),
      '--expose-gc',
      '--import',
      PRELOAD,
      BIN,
      'serve',
      '--port',
      String(port),
      '--config',
      configPath,
    ],
    {
      env: {
        ...process.env,
        BOTERNITY_HOME: home,
        BOTERNITY_CONFIG: '',
        BOTERNITY_ADMIN_TOKEN: TOKEN,
        BOTERNITY_LOG_LEVEL: process.env.CHAOS_LOG_LEVEL ?? 'warn',
        CHAOS_DEBUG_PORT: String(debugPort),
      },
      stdio: ['ignore', log, log],
    },
  );
  closeSync(log);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let exit = null;
  void exited.then((e) => {
    exit = e;
  });
  const url = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${TOKEN}` };
  const api = async (path, init = {}) => {
    const response = await fetch(`${url}${path}`, {
      ...init,
      headers: { ...auth, ...(init.headers ?? {}) },
      signal: AbortSignal.timeout(init.timeoutMs ?? 5_000),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
    };
  };
  const ready = await until(async () => exit === null && (await fetch(`${url}/healthz`)).ok, {
    timeoutMs: readyTimeoutMs,
  });
  const service = {
    url,
    home,
    /** Rewrite the config file (the service hot-reloads it). */
    writeConfig: (next) => writeFileSync(configPath, JSON.stringify(next(marker))),
    marker,
    pid: child.pid,
    auth,
    api,
    exited,
    exit: () => exit,
    log: () => readFileSync(logPath, 'utf8'),
    async servers() {
      return (await api('/api/servers')).body.servers;
    },
    async server(name) {
      return (await service.servers()).find((s) => s.name === name);
    },
    /** Heap figures after a forced GC in the service, through the harness's preload. */
    async heap() {
      const response = await fetch(`http://127.0.0.1:${debugPort}/heap`, { signal: AbortSignal.timeout(10_000) });
      return response.json();
    },
    /** The service's event loop delay (ms: p50, p99, max) since the last call, through the preload. */
    async loopDelay() {
      const response = await fetch(`http://127.0.0.1:${debugPort}/loop`, { signal: AbortSignal.timeout(10_000) });
      return response.json();
    },
    rssMb: () => rssMb(child.pid),
    /** An SDK client on `/mcp` (or `path`) with the admin token. */
    async client(path = '/mcp') {
      const client = new Client({ name: 'chaos', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${url}${path}`), { requestInit: { headers: auth } }),
      );
      return client;
    },
    /**
     * SIGTERM, wait up to `graceMs` for the exit, then SIGKILL; then list what is left of
     * this run (processes with the marker) and kill it. Returns what it saw.
     */
    async stop({ graceMs = 20_000 } = {}) {
      const started = performance.now();
      if (exit === null) child.kill('SIGTERM');
      const clean = await within(exited, graceMs);
      if (clean.timedOut) {
        child.kill('SIGKILL');
        await within(exited, 5_000);
      }
      const stopMs = round(performance.now() - started);
      // Give the kernel a moment to reap what the service just ended.
      const left = (await until(() => processesWith(marker).length === 0, { timeoutMs: 2_000 }))
        ? []
        : processesWith(marker);
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      const result = {
        exit: exit ?? { code: null, signal: 'SIGKILL' },
        stopMs,
        forced: Boolean(clean.timedOut),
        orphans: left.length,
      };
      if (!process.env.CHAOS_KEEP && !given) rmSync(home, { recursive: true, force: true });
      return result;
    },
  };
  if (!ready) {
    const why = exit ? `exited ${JSON.stringify(exit)}` : `not ready in ${readyTimeoutMs} ms`;
    const text = service.log().slice(-2_000);
    await service.stop();
    throw new Error(`service ${why}: ${text}`);
  }
  return service;
}

/** Wait until every named server is connected; resolves with the list or null. */
export function allConnected(service, names, timeoutMs = 30_000) {
  return until(
    async () => {
      const list = await service.servers();
      return names.every((n) => list.find((s) => s.name === n)?.state === 'connected') ? list : null;
    },
    { timeoutMs },
  );
}

/** One tool call through `client`, timed: { ok, ms, error? }. An isError result is a failure. */
export async function timedCall(client, name, args = {}, timeoutMs = 90_000) {
  const started = performance.now();
  try {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs });
    const ms = performance.now() - started;
    if (result.isError)
      return { ok: false, ms, error: String(result.content?.[0]?.text ?? 'isError').slice(0, 200), result };
    return { ok: true, ms, result };
  } catch (error) {
    return { ok: false, ms: performance.now() - started, error: String(error?.message ?? error).slice(0, 200) };
  }
}

export const mb = (bytes) => round(bytes / 1024 / 1024);

/** The most frequent few values of a list of strings, with their counts. */
export function countBy(list, top = 5) {
  const counts = {};
  for (const item of list) counts[item] = (counts[item] ?? 0) + 1;
  return Object.fromEntries(
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, top),
  );
}

/** Write `figures` to bench/results/<name>-<timestamp>.json; returns the path. */
export function writeResult(name, figures) {
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  return file;
}
