// An upstream that floods notifications (logging messages, then tools/list_changed), each
// for FLOOD_SECONDS: the service's memory and CPU, and whether calls to it and to a healthy
// server, and /healthz, stay quick.
import { join } from 'node:path';
import {
  allConnected,
  cpuTicks,
  mb,
  sleep,
  stdioServer,
  summarize,
  TINY,
  timedCall,
  UPSTREAMS,
  until,
  within,
} from '../harness.mjs';

const SECONDS = Number(process.env.FLOOD_SECONDS ?? 10);
const KINDS = ['message', 'list_changed'];

export default {
  name: 'flood',
  what: `an upstream flooding notifications/message, then tools/list_changed, ${SECONDS} s each`,
  timeoutMs: 60_000 + SECONDS * 2 * 4_000,
  async run({ start }) {
    const flooders = Object.fromEntries(
      KINDS.map((kind) => [
        `flood-${kind.replace('_', '-')}`,
        (marker) => stdioServer(join(UPSTREAMS, 'flood.mjs'), marker, { enabled: false, env: { FLOOD: kind } }),
      ]),
    );
    const service = await start((marker) => ({
      mcpServers: {
        ok: stdioServer(TINY, marker),
        ...Object.fromEntries(Object.entries(flooders).map(([name, entry]) => [name, entry(marker)])),
      },
    }));
    if (!(await allConnected(service, ['ok']))) return { error: 'ok did not connect' };
    const client = await service.client();
    const baseline = await measure(service, client, null, 3);
    const phases = {};
    for (const name of Object.keys(flooders)) {
      await service.api(`/api/servers/${name}/connect`, { method: 'POST' });
      const connected = await until(async () => (await service.server(name))?.state === 'connected', {
        timeoutMs: 20_000,
      });
      phases[name] = { connected: Boolean(connected), ...(await measure(service, client, name, SECONDS)) };
      await service.api(`/api/servers/${name}/disconnect`, { method: 'POST' });
      await sleep(1_000);
    }
    const heapAfter = await within(service.heap(), 15_000);
    const rssAfter = service.rssMb();
    await within(client.close(), 5_000);
    const stopped = await service.stop();
    return {
      baseline,
      phases,
      afterFloodsMb: { rss: rssAfter, heap: heapAfter.value ? mb(heapAfter.value.heapUsed) : null },
      stop: stopped,
    };
  },
};

/** For `seconds`: calls to ok (and to the flooder), /healthz round trips, RSS and CPU of the service. */
async function measure(service, client, flooder, seconds) {
  const okCalls = [];
  const flooderCalls = [];
  const health = [];
  const rss = [];
  const cpuBefore = cpuTicks(service.pid);
  const endAt = performance.now() + seconds * 1_000;
  while (performance.now() < endAt) {
    okCalls.push(await timedCall(client, 'ok__echo', { text: 'x' }, 10_000));
    if (flooder) flooderCalls.push(await timedCall(client, `${flooder}__echo`, { text: 'x' }, 10_000));
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
  return {
    okCallMs: { ...summarize(okCalls.map((c) => c.ms)), failed: okCalls.filter((c) => !c.ok).length },
    ...(flooder
      ? {
          flooderCallMs: {
            ...summarize(flooderCalls.map((c) => c.ms)),
            failed: flooderCalls.filter((c) => !c.ok).length,
          },
        }
      : {}),
    healthzMs: summarize(health),
    rssMb: { first: rss[0] ?? null, peak: Math.max(...rss.filter((x) => x !== null)), last: rss.at(-1) ?? null },
    serviceCpuPercent: Math.round((cpuSeconds / seconds) * 100),
  };
}
