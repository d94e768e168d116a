// An upstream that never answers `initialize`: when the service gives up (default and a
// short connectTimeoutMs), whether each abandoned attempt's process is ended, and whether
// calls to it fail at once.
import { join } from 'node:path';
import { allConnected, processesWith, stdioServer, TINY, timedCall, UPSTREAMS, until, within } from '../harness.mjs';

const SHORT_TIMEOUT_MS = 2_000;

export default {
  name: 'no-init',
  what: `an upstream that never answers initialize, with the default connectTimeoutMs and with ${SHORT_TIMEOUT_MS} ms`,
  timeoutMs: 120_000,
  async run({ start }) {
    const script = join(UPSTREAMS, 'no-init.mjs');
    const service = await start((marker) => ({
      mcpServers: {
        silent: stdioServer(script, `${marker}/default`),
        quick: stdioServer(script, `${marker}/quick`, {
          connectTimeoutMs: SHORT_TIMEOUT_MS,
          backoff: { baseMs: 200, capMs: 500 },
        }),
        ok: stdioServer(TINY, marker),
      },
    }));
    const startedAt = performance.now();
    await allConnected(service, ['ok']);
    const client = await service.client();
    const firstFailure = await until(async () => (await service.server('silent'))?.state === 'reconnecting', {
      timeoutMs: 60_000,
      intervalMs: 50,
    });
    const defaultGaveUpAfterS = firstFailure ? Math.round((performance.now() - startedAt) / 100) / 10 : null;
    const call = await timedCall(client, 'quick__echo', { text: 'x' }, 30_000);
    const okCall = await timedCall(client, 'ok__echo', { text: 'x' }, 30_000);
    const quick = await service.server('quick');
    // Each attempt spawns a process; at most the current attempt's may be alive.
    const quickProcesses = processesWith(`${service.marker}/quick`).length;
    const silentProcesses = processesWith(`${service.marker}/default`).length;
    const lastError = (await service.server('silent'))?.lastError ?? null;
    await within(client.close(), 5_000);
    const stopped = await service.stop();
    return {
      defaultGaveUpAfterS,
      defaultLastError: lastError,
      quickAttempts: quick?.attempt ?? null,
      quickCall: { ok: call.ok, ms: Math.round(call.ms), error: call.error ?? null },
      okCallWorks: okCall.ok,
      processesAliveAtEnd: { quick: quickProcesses, silent: silentProcesses },
      stop: stopped,
    };
  },
};
