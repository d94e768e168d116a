// One token saturating a shared upstream while another keeps calling it (issue 17 item 9:
// 300 concurrent 3.9 MB calls sent the upstream to `reconnecting`). A stdio and a
// Streamable HTTP upstream. For each size in FAIR_MB (default 3.9 and 0.01 MB) and each
// server: token B calls both servers at a steady pace (FAIR_PACE_MS) for a baseline of
// FAIR_BASE_SECONDS, then token A (a process of its own, raw HTTP, as a flooding client is:
// in a worker thread of this process it slowed B's own client; FAIR_FLOODER_NICE gives it
// a CPU priority, default 0) fires waves of
// FAIR_CALLS concurrent calls of that size at the server for FAIR_SECONDS while B keeps
// calling. Target: B's p50 on the flooded server ≤ 2× its baseline, the server connected
// throughout. FAIR_TOOL (echo) picks A's tool (`size` answers a few bytes); FAIR_LIMITS
// (JSON) sets `limits.inFlight`, FAIR_PER_CLIENT (JSON) `limits.perClient`.
import { fork, spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  allConnected,
  countBy,
  freePort,
  ROOT,
  round,
  sleep,
  stdioServer,
  summarize,
  timedCall,
  UPSTREAMS,
  until,
  within,
} from '../harness.mjs';

const SECONDS = Number(process.env.FAIR_SECONDS ?? 20);
const CALLS = Number(process.env.FAIR_CALLS ?? 300);
// Sizes of A's argument, comma-separated: a phase per size and server.
const SIZES = (process.env.FAIR_MB ?? '3.9,0.01').split(',').map(Number);
const TOOL = process.env.FAIR_TOOL ?? 'echo';
const BASE_SECONDS = Number(process.env.FAIR_BASE_SECONDS ?? 5);
const PACE_MS = Number(process.env.FAIR_PACE_MS ?? 50);
// `limits.inFlight` to run with, as JSON (unset: the defaults; a build without the caps refuses the key).
const LIMITS = process.env.FAIR_LIMITS ? JSON.parse(process.env.FAIR_LIMITS) : null;
// `limits.perClient` to run with, as JSON (unset: none, the default).
const PER_CLIENT = process.env.FAIR_PER_CLIENT ? JSON.parse(process.env.FAIR_PER_CLIENT) : null;
const SCRIPT = join(UPSTREAMS, 'fair.mjs');
const NICE = Number(process.env.FAIR_FLOODER_NICE ?? 0);
const SERVERS = ['fs', 'fh'];

/** Follow /api/events: the state changes of the servers, with when and why. */
function recordStates(service) {
  const seen = [];
  const controller = new AbortController();
  const began = performance.now();
  void (async () => {
    const response = await fetch(`${service.url}/api/events`, { headers: service.auth, signal: controller.signal });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((l) => l.startsWith('data:'));
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        if (!data) continue;
        const event = JSON.parse(data.slice(5));
        if (['connecting', 'connected', 'reconnecting', 'disabled'].includes(event.type))
          seen.push({
            atS: round((performance.now() - began) / 1000),
            server: event.server,
            type: event.type,
            ...(event.error ? { error: event.error.message } : {}),
          });
      }
    }
  })().catch(() => undefined);
  return { seen, stop: () => controller.abort() };
}

/** Token B: one call to each server in turn, `PACE_MS` apart, until `running()` is false. */
async function pace(client, running) {
  const calls = Object.fromEntries(SERVERS.map((s) => [s, []]));
  while (running()) {
    for (const server of SERVERS) {
      calls[server].push(await timedCall(client, `${server}__echo`, { text: 'b' }, 90_000));
      await sleep(PACE_MS);
    }
  }
  return calls;
}

// Latency of the calls that were answered: a call refused at once by a server that is
// down would otherwise make the figure look better.
const describe = (calls) => ({
  ...summarize(calls.filter((c) => c.ok).map((c) => c.ms)),
  failed: calls.filter((c) => !c.ok).length,
  errors: countBy(calls.filter((c) => !c.ok).map((c) => c.error)),
});

/** Token A's waves at `server`, in a process of its own at priority `NICE`; resolves with its outcomes. */
function flood(service, token, server, megabytes) {
  const data = { url: service.url, token, name: `${server}__${TOOL}`, calls: CALLS, megabytes, seconds: SECONDS };
  const child = fork(join(ROOT, 'bench', 'chaos', 'fairness-flooder.mjs'), [JSON.stringify(data)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (NICE !== 0) setPriority(child.pid, NICE);
  return new Promise((resolve, reject) => {
    child.once('message', (outcomes) => resolve(outcomes));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`flooder exited ${code}`)));
  });
}

async function tokenClient(service, token) {
  const client = new Client({ name: 'chaos-b', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

export default {
  name: 'fairness',
  what: `token A fires ${CALLS} concurrent calls of ${SIZES.join(' / ')} MB at one server (stdio, then Streamable HTTP) for ${SECONDS} s while token B calls at a steady pace`,
  timeoutMs: 2 * SIZES.length * (BASE_SECONDS + SECONDS + 150) * 1000,
  async run({ start }) {
    const httpPort = await freePort();
    let httpUpstream = null;
    const service = await start((marker) => {
      httpUpstream = spawn(process.execPath, [SCRIPT, `--http=${httpPort}`, `--chaos-run=${marker}`], {
        stdio: 'ignore',
      });
      return {
        ...(LIMITS || PER_CLIENT
          ? { limits: { ...(LIMITS ? { inFlight: LIMITS } : {}), ...(PER_CLIENT ? { perClient: PER_CLIENT } : {}) } }
          : {}),
        mcpServers: {
          fs: stdioServer(SCRIPT, marker),
          fh: { type: 'http', url: `http://127.0.0.1:${httpPort}/mcp` },
        },
      };
    });
    if (!(await allConnected(service, SERVERS))) return { error: 'upstreams did not connect' };
    const tokens = {};
    for (const name of ['a', 'b']) {
      const made = await service.api('/api/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      tokens[name] = made.body.token;
    }
    const b = await tokenClient(service, tokens.b);
    const states = recordStates(service);
    const phases = [];
    for (const [megabytes, target] of SIZES.flatMap((size) => SERVERS.map((server) => [size, server]))) {
      const ready = await until(async () => (await service.server(target))?.state === 'connected', {
        timeoutMs: 30_000,
      });
      // The machine is shared: each phase has a baseline of its own, taken just before.
      const baseUntil = performance.now() + BASE_SECONDS * 1000;
      const baseline = await pace(b, () => performance.now() < baseUntil);
      const from = states.seen.length;
      const began = performance.now();
      let flooding = true;
      const flooded = flood(service, tokens.a, target, megabytes).finally(() => {
        flooding = false;
      });
      const side = pace(b, () => flooding);
      const [a, during] = await Promise.all([flooded.catch((error) => ({ error: String(error) })), side]);
      const bTarget = describe(during[target]);
      const baseP50 = describe(baseline[target]).p50;
      phases.push({
        target,
        megabytes,
        connectedAtStart: Boolean(ready),
        seconds: round((performance.now() - began) / 1000),
        baseline: describe(baseline[target]),
        bOnTarget: { ...bTarget, ratioP50: round(bTarget.p50 / baseP50, 2) },
        bOnOther: describe(during[SERVERS.find((s) => s !== target)]),
        a: a.error
          ? a
          : {
              waves: a.waves,
              calls: a.waves * CALLS,
              answered: a.answered,
              answeredMs: summarize(a.answeredMs),
              refused: a.refused,
              failed: a.failed,
            },
        stateChanges: states.seen.slice(from),
        met:
          bTarget.p50 <= 2 * baseP50 &&
          bTarget.failed === 0 &&
          !states.seen
            .slice(from)
            .some((e) => e.server === target && (e.type === 'reconnecting' || e.type === 'disabled')),
      });
    }
    const metrics = await within(service.api('/metrics'), 10_000);
    states.stop();
    await within(b.close(), 5_000);
    httpUpstream?.kill('SIGTERM');
    const stopped = await service.stop();
    return {
      knobs: {
        seconds: SECONDS,
        calls: CALLS,
        megabytes: SIZES,
        tool: TOOL,
        baseSeconds: BASE_SECONDS,
        paceMs: PACE_MS,
        limits: LIMITS,
        perClient: PER_CLIENT,
        flooderNice: NICE,
      },
      phases,
      metrics:
        typeof metrics.value?.body === 'string'
          ? metrics.value.body.split('\n').filter((l) => /^boternity_upstream_(requests|queue)/.test(l))
          : null,
      stop: stopped,
    };
  },
};
