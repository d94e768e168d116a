import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTinyHttp, type TinyHttp } from '../support/start-tiny-http.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const RECONNECTS = 100;
// Before the fix each reconnect kept ~37 KB for ever. After it, the heap still creeps while
// the JIT warms up (~5 KB a reconnect, falling), so the slope is taken over the second half.
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
  let upstream: TinyHttp;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startTinyHttp();
    service = await startTestService({ mcpServers: { up: { type: 'http', url: upstream.url } } });
  });
  afterAll(async () => {
    try {
      await service?.stop();
    } finally {
      await upstream?.stop();
    }
  });

  const stateIs = (state: string) => () => service.service.hub.listServers()[0]?.state === state;
  const reconnect = async () => {
    const { hub } = service.service;
    hub.disconnect('up');
    await waitFor(stateIs('disabled'), { intervalMs: 2, what: 'disabled' });
    hub.connect('up');
    await waitFor(stateIs('connected'), { intervalMs: 2, what: 'connected' });
    const live = hub.upstream('up');
    if (!live) throw new Error('connected without a session');
    return new WeakRef(live.client);
  };

  it(`keeps no old Client and no heap after ${RECONNECTS} reconnects`, async () => {
    await waitFor(stateIs('connected'), { what: 'first connect' });
    // The first half warms up (lazily loaded code, first-use caches); the heap's slope is
    // taken over the second.
    const clients: WeakRef<object>[] = [];
    const heap: number[] = [];
    for (let i = 1; i <= RECONNECTS; i++) {
      clients.push(await reconnect());
      if (i === RECONNECTS / 2 || i === RECONNECTS) heap.push(await settledHeap());
    }

    // Only the session in use now may remain.
    expect(clients.filter((ref) => ref.deref() !== undefined).length).toBeLessThanOrEqual(1);
    const [half = 0, end = 0] = heap;
    expect((end - half) / (RECONNECTS / 2)).toBeLessThan(HEAP_TOLERANCE_PER_RECONNECT);
  }, 120_000);
});
