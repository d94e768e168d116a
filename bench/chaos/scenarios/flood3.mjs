// Three (four) upstreams flooding at once, each a different kind of notification: stdio
// `notifications/message`, stdio `notifications/resources/updated` (nobody subscribed),
// stdio `tools/list_changed`, and a Streamable HTTP `notifications/message` flooder. A
// bystander agent calls a healthy server throughout: its latency against a baseline taken
// in the same run, `/healthz`, the service's CPU and RSS, the database file's growth over
// the flood (the disk target: ≤ 5 MB in 60 s), what the log grew by, and what the service
// says of the flooders (`GET /api/servers`, `/metrics`).
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import {
  allConnected,
  cpuTicks,
  mb,
  percentile,
  round,
  sleep,
  stdioServer,
  summarize,
  TINY,
  timedCall,
  UPSTREAMS,
  until,
  within,
} from '../harness.mjs';

const SECONDS = Number(process.env.FLOOD_SECONDS ?? 60);
const BASELINE_SECONDS = Number(process.env.FLOOD_BASELINE_SECONDS ?? 10);
const HTTP_RATE = Number(process.env.FLOOD_HTTP_RATE ?? 5_000);
// FLOOD_HTTP=0: the three stdio flooders only.
const WITH_HTTP = process.env.FLOOD_HTTP !== '0';
const STDIO = { 'flood-message': 'message', 'flood-updated': 'resources_updated', 'flood-listchanged': 'list_changed' };

export default {
  name: 'flood3',
  what: `three stdio notification flooders (message, resources/updated, tools/list_changed) and a Streamable HTTP one (${HTTP_RATE}/s) at once for ${SECONDS} s, a bystander calling a healthy server`,
  timeoutMs: 120_000 + (SECONDS + BASELINE_SECONDS) * 3_000,
  async run({ start }) {
    const http = WITH_HTTP ? await startHttpFlooder() : { url: null, pid: null, error: 'FLOOD_HTTP=0', stop() {} };
    try {
      const service = await start((marker) => ({
        mcpServers: {
          ok: stdioServer(TINY, marker),
          ...Object.fromEntries(
            Object.entries(STDIO).map(([name, kind]) => [
              name,
              stdioServer(join(UPSTREAMS, 'flood.mjs'), marker, { enabled: false, env: { FLOOD: kind } }),
            ]),
          ),
          ...(http.url ? { 'flood-http': { url: http.url, type: 'http', enabled: false } } : {}),
        },
      }));
      if (!(await allConnected(service, ['ok']))) return { error: 'ok did not connect' };
      const flooders = Object.keys(STDIO).concat(http.url ? ['flood-http'] : []);
      const client = await service.client();
      const baseline = await measure(service, client, BASELINE_SECONDS, [], null);
      for (const name of flooders) await service.api(`/api/servers/${name}/connect`, { method: 'POST' });
      const connected = await allConnected(service, flooders, 30_000);
      const flood = await measure(service, client, SECONDS, flooders, http.pid);
      const servers = (await service.servers().catch(() => [])).filter((s) => flooders.includes(s.name));
      const metrics = await service
        .api('/metrics')
        .then((r) => String(r.body))
        .catch(() => '');
      for (const name of flooders) await service.api(`/api/servers/${name}/disconnect`, { method: 'POST' });
      const heapAfter = await within(service.heap(), 15_000);
      await within(client.close(), 5_000);
      const stopped = await service.stop();
      const p50 = (phase) => phase.okCallMs.p50;
      return {
        flooders: { connected: Boolean(connected), stdio: STDIO, http: http.url ? HTTP_RATE : http.error },
        baseline,
        flood,
        bystanderP50Ratio: round(p50(flood) / p50(baseline), 2),
        targetP50Within2x: p50(flood) <= 2 * p50(baseline),
        dbGrowthMb: flood.dbMb.growth,
        targetDbWithin5Mb: SECONDS >= 60 ? flood.dbMb.growth <= 5 : `needs FLOOD_SECONDS=60 (ran ${SECONDS})`,
        serversAfter: servers.map((s) => ({
          name: s.name,
          state: s.state,
          flooding: s.flooding ?? 'n/a',
          droppedNotifications: s.droppedNotifications ?? 'n/a',
        })),
        droppedMetric: metrics.split('\n').filter((l) => l.startsWith('boternity_notifications_dropped_total')),
        afterFloodsMb: { heap: heapAfter.value ? mb(heapAfter.value.heapUsed) : null },
        stop: stopped,
      };
    } finally {
      http.stop();
    }
  },
};

/** The Streamable HTTP flooder as a process of its own; resolves once it listens. */
async function startHttpFlooder() {
  const child = spawn(process.execPath, [join(UPSTREAMS, 'flood-http.mjs'), '--chaos-flood-http'], {
    env: { ...process.env, FLOOD_RATE: String(HTTP_RATE) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const url = await until(() => /listening (\S+)/.exec(out)?.[1], { timeoutMs: 10_000 });
  return {
    url,
    pid: child.pid,
    error: url ? null : 'the HTTP flooder did not start',
    stop: () => child.kill('SIGKILL'),
  };
}

/**
 * The database's size in bytes: its pages (what the file holds once the WAL is checked
 * in, read on a connection of our own) and the files on disk (the WAL is reused, not
 * shrunk: up to a few MB of it is noise).
 */
async function dbBytes(home) {
  let files = 0;
  for (const file of ['boternity.db', 'boternity.db-wal']) {
    try {
      files += statSync(join(home, file)).size;
    } catch {
      // Not there (yet).
    }
  }
  const client = createClient({ url: `file:${join(home, 'boternity.db')}` });
  try {
    const count = (await client.execute('PRAGMA page_count')).rows[0][0];
    const size = (await client.execute('PRAGMA page_size')).rows[0][0];
    return { pages: Number(count) * Number(size), files };
  } catch {
    return { pages: null, files };
  } finally {
    client.close();
  }
}

/** For `seconds`: a bystander's calls to ok, /healthz round trips, CPU, RSS, database and log growth. */
async function measure(service, client, seconds, stdioFlooders, httpPid) {
  const okCalls = [];
  const health = [];
  const rss = [];
  const pidsOf = async () =>
    (await service.servers().catch(() => [])).filter((s) => stdioFlooders.includes(s.name) && s.pid).map((s) => s.pid);
  const flooderPids = (await pidsOf()).concat(httpPid ? [httpPid] : []);
  await service.loopDelay().catch(() => null);
  const cpuBefore = cpuTicks(service.pid);
  const flooderCpuBefore = flooderPids.map(cpuTicks);
  const dbBefore = await dbBytes(service.home);
  const logBefore = service.log();
  const endAt = performance.now() + seconds * 1_000;
  while (performance.now() < endAt) {
    okCalls.push(await timedCall(client, 'ok__echo', { text: 'x' }, 10_000));
    const t = performance.now();
    const ok = await fetch(`${service.url}/healthz`, { signal: AbortSignal.timeout(10_000) }).then(
      (r) => r.ok,
      () => false,
    );
    health.push(ok ? performance.now() - t : 10_000);
    rss.push(service.rssMb());
    await sleep(100);
  }
  const cpuSeconds = (cpuTicks(service.pid) - cpuBefore) / 100;
  const loopDelayMs = await service.loopDelay().catch(() => null);
  const flooderCpu = flooderPids.map((pid, i) => Math.round((cpuTicks(pid) - flooderCpuBefore[i]) / seconds));
  // Let the audit's last batch land before the file is measured.
  await sleep(500);
  const dbAfter = await dbBytes(service.home);
  const logAdded = service.log().slice(logBefore.length);
  return {
    seconds,
    okCallMs: { ...summarize(okCalls.map((c) => c.ms)), failed: okCalls.filter((c) => !c.ok).length },
    healthzMs: summarize(health),
    healthzP95Ms: round(percentile(health, 95)),
    serviceCpuPercent: Math.round((cpuSeconds / seconds) * 100),
    serviceLoopDelayMs: loopDelayMs,
    // The stdio flooders', then the HTTP flooder's: they share the machine's cores.
    floodersCpuPercent: flooderCpu,
    loadavg: loadavg().map((x) => round(x)),
    rssMb: { first: rss[0] ?? null, peak: Math.max(...rss.filter((x) => x !== null)), last: rss.at(-1) ?? null },
    dbMb: {
      before: mb(dbBefore.pages),
      after: mb(dbAfter.pages),
      growth: mb(dbAfter.pages - dbBefore.pages),
      filesGrowth: mb(dbAfter.files - dbBefore.files),
    },
    log: { lines: logAdded ? logAdded.split('\n').length - 1 : 0, bytes: logAdded.length },
  };
}
