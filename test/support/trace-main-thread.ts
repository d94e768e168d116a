/**
 * The renderer main thread's own CPU time, read from a Chromium trace (the DevTools
 * protocol's `Tracing` domain): a browser test wraps what it does in `start` … `stop`, then
 * asks for the dispatches of a DOM event type (`dispatches`: each one's thread time `tdur` —
 * the time the thread ran, not the time it waited for a core — and wall time `dur`), or for
 * the thread time of the main thread's tasks between two instants of the page's own clock
 * (`cpuBetween`, aligned through a `performance.mark` the page made while tracing). On a
 * machine whose cores are shared, the wall time of 5 ms of work can be 40 ms because the
 * system ran something else in between; the thread time is the page's cost.
 * @module
 */
import type { Page } from 'playwright-core';

/** A task of a thread's loop, as the trace names it (the name changed across Chromium versions). */
const TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/** One dispatch of a DOM event, in milliseconds. */
export type Dispatch = { type: string; cpuMs: number; wallMs: number };

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { type?: string } };
};

/** A finished trace. */
export type Trace = ReturnType<typeof readTrace>;

function readTrace(events: readonly TraceEvent[]) {
  const mains = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}/${e.tid}`),
  );
  const onMain = (e: TraceEvent) => mains.has(`${e.pid}/${e.tid}`);
  return {
    /** Each dispatch of an event of one of `types`. */
    dispatches(types: readonly string[]): Dispatch[] {
      return events
        .filter((e) => e.name === 'EventDispatch' && e.ph === 'X' && types.includes(e.args?.data?.type ?? ''))
        .map((e) => ({
          type: e.args?.data?.type ?? '',
          cpuMs: (e.tdur ?? Number.NaN) / 1000,
          wallMs: (e.dur ?? 0) / 1000,
        }));
    },
    /**
     * The main thread's CPU time (ms) in the tasks that began between `fromMs` and `toMs`
     * (`performance.now()` of the page), through the mark `sync` made at `syncMs`.
     */
    cpuBetween(fromMs: number, toMs: number, sync: { name: string; atMs: number }): number {
      const mark = events.find((e) => e.name === sync.name && e.ph !== 'M');
      if (!mark) throw new Error(`the trace has no mark ${sync.name}`);
      const offset = mark.ts - sync.atMs * 1000;
      const [from, to] = [fromMs * 1000 + offset, toMs * 1000 + offset];
      return (
        events
          .filter((e) => TASKS.has(e.name) && e.ph === 'X' && onMain(e) && e.ts >= from && e.ts <= to)
          .reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000
      );
    },
  };
}

/** Start tracing `page`; `stop()` ends it and gives the trace. */
export async function traceMainThread(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (chunk) => events.push(...(chunk.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline', 'toplevel', 'blink.user_timing', '__metadata'] },
  });
  return {
    async stop(): Promise<Trace> {
      const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach();
      return readTrace(events);
    },
  };
}
