// SIGSTOP of an upstream with calls to it: how long each call hangs (today until the health
// ping fails), whether other servers keep answering, and what happens after SIGCONT.
import { allConnected, isAlive, sleep, stdioServer, summarize, TINY, timedCall, until, within } from '../harness.mjs';

const CALLS = 5;
const CALL_BOUND_MS = 90_000;

export default {
  name: 'sigstop',
  what: `SIGSTOP of an upstream (default health settings) with ${CALLS} calls to it, then SIGCONT`,
  timeoutMs: 180_000,
  async run({ start }) {
    const service = await start((marker) => ({
      mcpServers: { stalled: stdioServer(TINY, marker), ok: stdioServer(TINY, marker) },
    }));
    if (!(await allConnected(service, ['stalled', 'ok']))) return { error: 'upstreams did not connect' };
    const client = await service.client();
    const warm = await timedCall(client, 'stalled__echo', { text: 'warm' });
    const before = await service.server('stalled');
    const sinceLastPingMs = before.lastPingAt ? Date.now() - Date.parse(before.lastPingAt) : null;

    process.kill(before.pid, 'SIGSTOP');
    const stoppedAt = performance.now();
    // Calls started one second apart: each shows how long a call made during the stall hangs.
    const stalled = Array.from({ length: CALLS }, (_, i) =>
      sleep(i * 1_000).then(() => timedCall(client, 'stalled__echo', { text: `during ${i}` }, CALL_BOUND_MS)),
    );
    const others = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        others.push(await timedCall(client, 'ok__echo', { text: 'bystander' }, 10_000));
        await sleep(200);
      }
    })();
    const results = await Promise.all(stalled);
    const callsEndedS = (performance.now() - stoppedAt) / 1000;
    probing = false;
    await probe;

    const during = await service.server('stalled');
    if (isAlive(before.pid)) process.kill(before.pid, 'SIGCONT');
    const contAt = performance.now();
    const back = await until(async () => (await service.server('stalled'))?.state === 'connected', {
      timeoutMs: 60_000,
    });
    const after = await service.server('stalled');
    const reconnectedAfterContMs = back ? performance.now() - contAt : null;
    const afterCall = await timedCall(client, 'stalled__echo', { text: 'after' }, 30_000);
    await within(client.close(), 5_000);
    const stopped = await service.stop();
    return {
      warmCallOk: warm.ok,
      sinceLastPingAtStopMs: sinceLastPingMs,
      stalledCalls: results.map((r) => ({ ok: r.ok, ms: Math.round(r.ms), error: r.error ?? null })),
      stalledCallMs: summarize(results.map((r) => r.ms)),
      allStalledCallsEndedAfterS: Math.round(callsEndedS * 10) / 10,
      stateWhileStopped: during?.state ?? null,
      bystanderCalls: { ...summarize(others.map((r) => r.ms)), failed: others.filter((r) => !r.ok).length },
      afterCont: {
        connected: Boolean(back),
        msAfterCont: reconnectedAfterContMs === null ? null : Math.round(reconnectedAfterContMs),
        replaced: after?.pid !== before.pid,
        oldProcessAlive: isAlive(before.pid),
        callOk: afterCall.ok,
      },
      stop: stopped,
    };
  },
};
