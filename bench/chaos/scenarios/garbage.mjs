// An upstream that writes a garbage line to stdout every few milliseconds between its real
// answers: do calls to it still work, does it get disconnected, what does the log say.
import { join } from 'node:path';
import {
  allConnected,
  countBy,
  sleep,
  stdioServer,
  summarize,
  timedCall,
  UPSTREAMS,
  until,
  within,
} from '../harness.mjs';

const SECONDS = Number(process.env.GARBAGE_SECONDS ?? 10);

export default {
  name: 'garbage',
  what: `an upstream writing a garbage line to stdout every 5 ms, with calls to it for ${SECONDS} s`,
  timeoutMs: 90_000,
  async run({ start }) {
    const service = await start((marker) => ({
      mcpServers: { garbage: stdioServer(join(UPSTREAMS, 'garbage.mjs'), marker) },
    }));
    if (!(await allConnected(service, ['garbage'])))
      return { error: 'garbage did not connect', log: service.log().slice(-1_000) };
    const first = await service.server('garbage');
    const logBefore = service.log().length;
    const client = await service.client();
    const calls = [];
    const states = new Set();
    const endAt = performance.now() + SECONDS * 1_000;
    while (performance.now() < endAt) {
      calls.push(await timedCall(client, 'garbage__echo', { text: 'through the noise' }, 10_000));
      states.add((await service.server('garbage'))?.state);
      await sleep(50);
    }
    const last = await service.server('garbage');
    const rss = service.rssMb();
    await within(client.close(), 5_000);
    // Disconnected, the session's repeated warnings are summed up once more: then the log is read.
    await service.api('/api/servers/garbage/disconnect', { method: 'POST' });
    await until(async () => (await service.server('garbage'))?.state === 'disabled', { timeoutMs: 10_000 });
    await sleep(200);
    const log = service.log().slice(logBefore);
    const lines = log.split('\n').filter(Boolean);
    const stopped = await service.stop();
    const failed = calls.filter((c) => !c.ok);
    return {
      calls: { total: calls.length, ok: calls.length - failed.length, failed: failed.length },
      callMs: summarize(calls.map((c) => c.ms)),
      failureKinds: countBy(failed.map((c) => c.error)),
      statesSeen: [...states],
      restarted: last?.pid !== first.pid,
      attemptAtEnd: last?.attempt ?? null,
      warnLinesInLog: lines.filter((l) => /"level":(40|50)/.test(l)).length,
      log: {
        seconds: SECONDS,
        lines: lines.length,
        bytes: Buffer.byteLength(log),
        zodErrorDumps: lines.filter((l) => l.includes('ZodError')).length,
        stackTraces: lines.filter((l) => l.includes('"stack"')).length,
        summaries: lines.filter((l) => l.includes('"repeated"')).length,
      },
      rssMb: rss,
      stop: stopped,
    };
  },
};
