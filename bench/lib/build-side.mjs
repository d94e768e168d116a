// One side of a comparison between two builds of boternity (paired-builds.mjs,
// cold-window.mjs, window-processes.mjs): `bnity serve` from a checkout with the harness's
// upstream, an SDK client on it, and the CPU of every thread of its process; and what the
// benches share for their clients: the harness's lean fetch, a free port.
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawnServe } from './spawn-serve.mjs';

const bench = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOKEN = 'bench-token';

/**
 * A fetch as the harness's client uses ('--client lean'): the SDK's HTTP transport hands one
 * long-lived AbortSignal to every fetch, whose listeners pile up over thousands of calls and
 * slow the client down; POSTs go without it.
 */
export const leanFetch = (url, init) =>
  init?.method === 'POST' ? fetch(url, { ...init, signal: undefined }) : fetch(url, init);

/** A port free on 127.0.0.1 now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * The harness's upstream (`echo` and `bytes`), copied under bench/results/ so that it resolves
 * the SDK from this checkout's node_modules (the harness folder has none of its own).
 */
export function harnessUpstream(from = process.env.UPSTREAM ?? resolve(bench, '../../shared/bench/upstream.mjs')) {
  const upstream = join(bench, 'results', 'paired-upstream.mjs');
  mkdirSync(dirname(upstream), { recursive: true });
  copyFileSync(from, upstream);
  return upstream;
}

/** CPU of every thread of `pid`, in ms (schedstat: nanoseconds, not 10 ms ticks). */
export function threadsCpuMs(pid) {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return ns / 1e6;
}

/**
 * `bnity serve` from checkout `dir` with one stdio server `up` running `upstream`, and a
 * client once its `up__echo` tool is listed. `fetch`: the client's (default the global one).
 */
export async function openBuild(dir, { upstream, nodeArgs = [], name = 'build-side', fetch } = {}) {
  const serve = await spawnServe({
    config: { mcpServers: { up: { command: process.execPath, args: [upstream] } } },
    token: TOKEN,
    nodeArgs,
    bin: join(resolve(dir), 'bin', 'bnity.js'),
  });
  const client = new Client({ name, version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      ...(fetch ? { fetch } : {}),
    }),
  );
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { tools } = await client.listTools();
    if (tools.some((t) => t.name === 'up__echo')) return { serve, client };
    if (Date.now() > deadline) {
      await serve.stop();
      throw new Error(`${dir}: the upstream ${upstream} gave no up__echo tool within 20 s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The CPU of every thread of a side's service, in ms (not its upstream's). */
export const sideCpuMs = (side) => threadsCpuMs(side.serve.child.pid);

const text = 'y'.repeat(64);
/** One call of the harness upstream's `echo` (64 characters) or `bytes` (64 KiB) through `side`; its time in ms. */
export async function timedCall(side, tool) {
  const t = performance.now();
  const r = await side.client.callTool({ name: `up__${tool}`, arguments: tool === 'bytes' ? { n: 65536 } : { text } });
  if (r.isError) throw new Error(`${tool} failed: ${JSON.stringify(r.content).slice(0, 200)}`);
  return performance.now() - t;
}

/** Close the client and stop the service. */
export async function closeBuild(side) {
  await side.client.close().catch(() => undefined);
  await side.serve.stop();
}
