// An upstream whose tool answers 50 MB: how long the call takes, what the agent receives,
// the service's memory during and after, and whether other calls stall meanwhile.
import { join } from 'node:path';
import {
  allConnected,
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

const MEGABYTES = Number(process.env.HUGE_MB ?? 50);
const ROUNDS = 3;

export default {
  name: 'huge-answer',
  what: `an upstream answering ${MEGABYTES} MB to a tool call, ${ROUNDS} times, with a bystander calling another server`,
  timeoutMs: 240_000,
  async run({ start }) {
    const service = await start((marker) => ({
      mcpServers: {
        huge: stdioServer(join(UPSTREAMS, 'huge.mjs'), marker, { env: { HUGE_MB: String(MEGABYTES) } }),
        ok: stdioServer(TINY, marker),
      },
    }));
    if (!(await allConnected(service, ['huge', 'ok']))) return { error: 'upstreams did not connect' };
    const client = await service.client();
    const bystanderClient = await service.client();
    const rssBefore = service.rssMb();
    const heapBefore = (await service.heap()).heapUsed;
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      // An answer that breaks the connection: each round starts on a connected server.
      const ready = await until(async () => (await service.server('huge'))?.state === 'connected', {
        timeoutMs: 30_000,
      });
      const bystander = [];
      const rss = [];
      let running = true;
      const side = (async () => {
        while (running) {
          bystander.push(await timedCall(bystanderClient, 'ok__echo', { text: 'x' }, 60_000));
          rss.push(service.rssMb());
          await sleep(100);
        }
      })();
      const call = await timedCall(client, 'huge__huge', {}, 120_000);
      running = false;
      await side;
      const text = call.result?.content?.[0]?.text ?? '';
      rounds.push({
        connectedAtStart: Boolean(ready),
        ok: call.ok,
        ms: Math.round(call.ms),
        error: call.error ?? null,
        receivedChars: text.length,
        rssPeakMb: Math.max(rssBefore, ...rss.filter((x) => x !== null)),
        bystanderMs: { ...summarize(bystander.map((c) => c.ms)), failed: bystander.filter((c) => !c.ok).length },
      });
    }
    const heapAfter = await within(service.heap(), 15_000);
    const rssAfter = service.rssMb();
    const hugeState = (await service.server('huge'))?.state ?? null;
    await within(Promise.all([client.close(), bystanderClient.close()]), 5_000);
    const stopped = await service.stop();
    return {
      megabytes: MEGABYTES,
      rounds,
      hugeStateAfter: hugeState,
      rssMb: { before: rssBefore, after: rssAfter },
      heapMb: { before: mb(heapBefore), after: heapAfter.value ? mb(heapAfter.value.heapUsed) : null },
      stop: stopped,
    };
  },
};
