// Remote upstreams answering HUGE_MB (default 1024) megabytes to a tool call, HUGE_ROUNDS
// (default 3) times per transport (Streamable HTTP answering as JSON and as an SSE event,
// legacy HTTP+SSE), with a bystander calling a stdio server and /healthz polled: the
// service's RSS, what the agent gets and when, and how much the upstream still sent after
// the agent had its answer. Then the same answer sent slowly (HUGE_RATE_MB_S, default 100)
// to a server whose bound is above it and whose requestTimeoutMs (2 s) ends the call
// first: does the download stop when the call ends?
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { allConnected, mb, round, sleep, summarize, TINY, timedCall, UPSTREAMS, until, within } from '../harness.mjs';

const MEGABYTES = Number(process.env.HUGE_MB ?? 1024);
const ROUNDS = Number(process.env.HUGE_ROUNDS ?? 3);
const RATE = Number(process.env.HUGE_RATE_MB_S ?? 100);
const ENDED_TIMEOUT_MS = 2_000;
const KINDS = ['json', 'stream', 'sse'];

/** Start the upstream process; resolves with its base URL and a stop function. */
async function startUpstream() {
  const child = spawn(process.execPath, [join(UPSTREAMS, 'huge-http.mjs')], {
    env: { ...process.env, HUGE_MB: String(MEGABYTES) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`huge-http exited: ${out}`)));
  });
  return { base, stop: () => child.kill('SIGKILL') };
}

const entry = (base, kind, extra = {}) =>
  kind === 'sse'
    ? { type: 'sse', url: `${base}/sse${extra.rate ? `?rate=${extra.rate}` : ''}`, ...extra.config }
    : {
        type: 'http',
        url: `${base}/mcp?answer=${kind === 'stream' ? 'stream' : 'json'}${extra.rate ? `&rate=${extra.rate}` : ''}`,
        ...extra.config,
      };

export default {
  name: 'huge-http-answer',
  what: `remote upstreams answering ${MEGABYTES} MB to a tool call, ${ROUNDS} times per transport (${KINDS.join(', ')}), with a bystander; then ${MEGABYTES} MB at ${RATE} MB/s to calls that time out after ${ENDED_TIMEOUT_MS} ms`,
  timeoutMs: 900_000,
  async run({ start }) {
    const upstream = await startUpstream();
    try {
      return await measure(start, upstream.base);
    } finally {
      upstream.stop();
    }
  },
};

async function measure(start, base) {
  // The bound of the ended-call servers is above the answer: only the call's end can stop it.
  const above = { maxAnswerBytes: 2 ** 31 - 1, requestTimeoutMs: ENDED_TIMEOUT_MS };
  const servers = { ok: { command: process.execPath, args: [TINY] } };
  for (const kind of KINDS) {
    servers[kind] = entry(base, kind, { config: { requestTimeoutMs: 120_000 } });
    servers[`ended${kind}`] = entry(base, kind, { rate: RATE, config: above });
  }
  const service = await start(() => ({ mcpServers: servers }));
  if (!(await allConnected(service, Object.keys(servers)))) return { error: 'upstreams did not connect' };
  const stats = async () => (await (await fetch(`${base}/stats`)).json()).answers;
  const client = await service.client();
  const bystanderClient = await service.client();
  const rssBefore = service.rssMb();

  const round_ = async (server) => {
    const ready = await until(async () => (await service.server(server))?.state === 'connected', {
      timeoutMs: 30_000,
    });
    const bystander = [];
    const health = [];
    const rss = [];
    let running = true;
    const side = (async () => {
      while (running) {
        bystander.push(await timedCall(bystanderClient, 'ok__echo', { text: 'x' }, 60_000));
        await sleep(100);
      }
    })();
    const probe = (async () => {
      while (running) {
        const began = performance.now();
        const got = await within(fetch(`${service.url}/healthz`, { signal: AbortSignal.timeout(10_000) }), 11_000);
        health.push(got.value?.ok ? performance.now() - began : 10_000);
        rss.push(service.rssMb());
        await sleep(200);
      }
    })();
    const before = (await stats()).length;
    const call = await timedCall(client, `${server}__huge`, {}, 300_000);
    const answeredAt = Date.now();
    const atAnswer = (await stats())[before];
    // Whatever is still on its way after the agent's answer: wait until the upstream's
    // socket closed (or 30 s), then see how much more it wrote.
    const closed = await until(async () => (await stats())[before]?.closedAt ?? null, { timeoutMs: 30_000 });
    const atClose = (await stats())[before];
    running = false;
    await Promise.all([side, probe]);
    return {
      server,
      connectedAtStart: Boolean(ready),
      ok: call.ok,
      answeredMs: Math.round(call.ms),
      error: call.error ?? null,
      rssPeakMb: Math.max(rssBefore, ...rss.filter((x) => x !== null)),
      upstreamSentMb: { atAnswer: atAnswer ? mb(atAnswer.bytes) : null, atClose: atClose ? mb(atClose.bytes) : null },
      sentAfterAnswerMb: atAnswer && atClose ? mb(atClose.bytes - atAnswer.bytes) : null,
      upstreamClosedAfterAnswerMs: closed ? closed - answeredAt : 'not within 30 s',
      healthzMs: summarize(health),
      bystanderMs: { ...summarize(bystander.map((c) => c.ms)), failed: bystander.filter((c) => !c.ok).length },
    };
  };

  const rounds = [];
  for (const kind of KINDS) for (let i = 0; i < ROUNDS; i++) rounds.push(await round_(kind));
  const ended = [];
  for (const kind of KINDS) ended.push(await round_(`ended${kind}`));
  const heapAfter = await within(service.heap(), 15_000);
  const rssAfter = service.rssMb();
  const states = Object.fromEntries((await service.servers()).map((s) => [s.name, s.state]));
  await within(Promise.all([client.close(), bystanderClient.close()]), 5_000);
  const stopped = await service.stop();
  // The target (RSS growth) is about the bounded rounds; the ended rounds allow 2 GB answers.
  const peak = Math.max(...rounds.map((r) => r.rssPeakMb));
  return {
    megabytes: MEGABYTES,
    rounds,
    ended,
    rssMb: {
      before: rssBefore,
      peak,
      growth: round(peak - rssBefore),
      peakEndedRounds: Math.max(...ended.map((r) => r.rssPeakMb)),
      after: rssAfter,
    },
    heapMbAfter: heapAfter.value ? mb(heapAfter.value.heapUsed) : null,
    statesAfter: states,
    stop: stopped,
  };
}
