import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../../src/bus/create-event-bus.js';
import type { HubEvent } from '../../../src/events/hub-event.js';
import { createLossWatch } from '../../../src/gateway/relay/loss-watch.js';
import type { UpstreamSession } from '../../../src/upstream/types.js';

/** Only `closed` is read by the watch. */
function fakeUpstream() {
  let close: (v: { error: Error | null }) => void = () => undefined;
  const closed = new Promise<{ error: Error | null }>((resolve) => {
    close = resolve;
  });
  return { upstream: { closed } as unknown as UpstreamSession, close: () => close({ error: null }) };
}
const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => {
    done = true;
  });
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

describe('createLossWatch', () => {
  it('tells the calls in flight when their connection closes, and not those already disposed', async () => {
    const bus = createEventBus<HubEvent>();
    const losses = createLossWatch({ bus });
    const { upstream, close } = fakeUpstream();
    const finished = losses.watch('s', upstream, true);
    finished.dispose();
    const running = losses.watch('s', upstream, true);
    close();
    expect(await running.lost).toBe('closed the connection');
    expect(await settled(finished.lost)).toBe(false);
    losses.stop();
  });

  it("ends shared calls when their server leaves connected, but not a session's own connection", async () => {
    const bus = createEventBus<HubEvent>();
    const losses = createLossWatch({ bus });
    const shared = losses.watch('s', fakeUpstream().upstream, true);
    const own = losses.watch('s', fakeUpstream().upstream, false);
    const other = losses.watch('t', fakeUpstream().upstream, true);
    bus.publish({
      type: 'reconnecting',
      server: 's',
      attempt: 1,
      delayMs: 500,
      error: { message: 'liveness check timed out after 2000 ms', code: 'timeout' },
    });
    expect(await shared.lost).toBe('went reconnecting (liveness check timed out after 2000 ms)');
    expect(await settled(own.lost)).toBe(false);
    expect(await settled(other.lost)).toBe(false);
    losses.stop();
  });
});
