/**
 * No leak per reconnect (issue 11, ADR 009): the hub reconnects a real Streamable HTTP
 * upstream 100 times through `connectUpstream` and the real remote opener; no old SDK
 * `Client` stays reachable, and the heap after a forced GC stops growing.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/bus/create-event-bus.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { RemoteServerConfig } from '../../src/config/schema.js';
import type { HubEvent } from '../../src/events/hub-event.js';
import { createHub, type Hub } from '../../src/hub/create-hub.js';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import { openRemoteSession } from '../../src/upstream/remote-session.js';
import { testLogger } from '../support/fixtures.js';
import { startTinyHttp, type TinyHttp } from '../support/start-tiny-http.js';
import { waitFor } from '../support/wait-for.js';

const RECONNECTS = 100;
// Before the fix each reconnect kept ~37 KB for ever. After it, the heap still creeps while
// the JIT warms up (~5–7 KB a reconnect, falling; on a loaded machine later, and more: 34 KB
// over a second half was seen once in a clean-clone CI run).
const HEAP_TOLERANCE_PER_RECONNECT = 15 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap after full collections, once pending callbacks (closes, finalizers) have run. */
async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

describe('reconnecting an upstream', () => {
  const log = testLogger();
  const clients: WeakRef<object>[] = [];
  let upstream: TinyHttp;
  let hub: Hub;
  beforeAll(async () => {
    upstream = await startTinyHttp();
    hub = createHub({
      log,
      bus: createEventBus<HubEvent>(),
      open: ({ serverId, config, signal, stderr }) =>
        connectUpstream({
          serverId,
          config,
          signal,
          stderr,
          log,
          // The real remote opener; the test keeps only a weak reference to each client.
          openSession: async (options) => {
            const session = await openRemoteSession({ ...options, serverId, config: config as RemoteServerConfig });
            clients.push(new WeakRef(session.client));
            return session;
          },
        }),
    });
    hub.applyConfig(parseConfig({ mcpServers: { up: { type: 'http', url: upstream.url } } }, null));
  });
  afterAll(async () => {
    try {
      await hub?.stop();
    } finally {
      await upstream?.stop();
    }
  });

  const stateIs = (state: string) => () => hub.listServers()[0]?.state === state;
  const reconnect = async () => {
    hub.disconnect('up');
    await waitFor(stateIs('disabled'), { intervalMs: 2, what: 'disabled' });
    hub.connect('up');
    await waitFor(stateIs('connected'), { intervalMs: 2, what: 'connected' });
  };

  it(`keeps no old Client and no heap after ${RECONNECTS} reconnects`, async () => {
    await waitFor(stateIs('connected'), { what: 'first connect' });
    // The heap is read every quarter. A leak grows it in every quarter alike; the JIT's
    // warm-up (lazily loaded code, first-use caches, code compiled late on a loaded machine)
    // only until it is done: the flattest of the last three quarters' slopes is the one held.
    const heap: number[] = [];
    const quarter = RECONNECTS / 4;
    for (let i = 1; i <= RECONNECTS; i++) {
      await reconnect();
      if (i % quarter === 0) heap.push(await settledHeap());
    }

    expect(clients).toHaveLength(RECONNECTS + 1);
    // Only the session in use now may remain.
    expect(clients.filter((ref) => ref.deref() !== undefined).length).toBeLessThanOrEqual(1);
    const slopes = heap.slice(1).map((at, i) => (at - (heap[i] as number)) / quarter);
    expect(slopes).toHaveLength(3);
    expect(Math.min(...slopes)).toBeLessThan(HEAP_TOLERANCE_PER_RECONNECT);
  }, 120_000);
});
