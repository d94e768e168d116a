/**
 * The renderer main thread's own CPU time on events, read from a Chromium trace (the
 * DevTools protocol's `Tracing` domain, category `devtools.timeline`): for each dispatch of a
 * DOM event of a type, its thread time (`tdur`: the time the thread ran, not the time it
 * waited for a core) and its wall time (`dur`). A browser test wraps what it does in
 * `start()` … `stop()`. On a machine whose cores are shared, the wall time of a 5 ms piece of
 * work can be 40 ms because the system ran something else in between; the thread time is the
 * page's cost.
 * @module
 */
import type { Page } from 'playwright-core';

/** One dispatch of a DOM event, in milliseconds. */
export type Dispatch = { type: string; cpuMs: number; wallMs: number };

type TraceEvent = { name: string; ph: string; dur?: number; tdur?: number; args?: { data?: { type?: string } } };

/** Start tracing `page`; `stop()` ends it and gives the dispatches of events of `types`. */
export async function traceMainThread(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (chunk) => events.push(...(chunk.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline'], enableSampling: false },
  });
  return {
    async stop(types: readonly string[]): Promise<Dispatch[]> {
      const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach();
      return events
        .filter((e) => e.name === 'EventDispatch' && e.ph === 'X' && types.includes(e.args?.data?.type ?? ''))
        .map((e) => ({
          type: e.args?.data?.type ?? '',
          cpuMs: (e.tdur ?? Number.NaN) / 1000,
          wallMs: (e.dur ?? 0) / 1000,
        }));
    },
  };
}
