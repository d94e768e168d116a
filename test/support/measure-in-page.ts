/**
 * Scripts that a browser test runs in the page (as strings: the page's CSP forbids the eval
 * that playwright's function form would need) to time the UI as a person feels it:
 *
 * - {@link RECORD_KEYSTROKES}: for each key typed in a search box, `work` is the main thread's
 *   time on it: from the `input` event reaching the document (a capturing listener) to the end
 *   of the page's handler, Preact's render (a microtask that runs before the next listener)
 *   and the style and layout it made necessary (forced by a bubbling listener, the last one);
 *   `frame` is from the `keydown`'s own timestamp (when the browser took the key) to just after
 *   the next frame was painted (`requestAnimationFrame`, then a message: its task runs once that
 *   frame is out), which adds the wait in the input queue and for the display's next tick (up to
 *   16.7 ms at 60 Hz whatever the work). They pile up in `window.keystrokes`.
 * - {@link timeRender}: sets `location.hash` and records in `window.rendered` when the data
 *   arrived (the last `responseEnd`, from Resource Timing, of the fetches whose path matches)
 *   and when the page was painted with `count` elements matching `selector` (a
 *   MutationObserver sees them, then the same frame-then-message as above), and marks that
 *   instant `inventory-painted` (a trace can then be aligned with the page's clock).
 * @module
 */

/** Install the keystroke recorder (once per page). */
export const RECORD_KEYSTROKES = `(() => {
  window.keystrokes = [];
  let pressed = null;
  let began = null;
  const isFilter = (e) => e.target instanceof HTMLInputElement && e.target.type === 'search';
  document.addEventListener('keydown', (e) => { if (isFilter(e)) pressed = e.timeStamp; }, true);
  document.addEventListener('input', (e) => { if (isFilter(e)) began = performance.now(); }, true);
  document.addEventListener('input', (e) => {
    if (!isFilter(e) || began === null || pressed === null) return;
    document.body.getBoundingClientRect();
    const work = performance.now() - began;
    const from = pressed;
    pressed = began = null;
    requestAnimationFrame(() => {
      const painted = new MessageChannel();
      painted.port1.onmessage = () => window.keystrokes.push({ work, frame: performance.now() - from });
      painted.port2.postMessage(0);
    });
  });
})()`;

/** The script that goes to `hash` and times the render of `count` × `selector` after `dataPath` arrived. */
export function timeRender(hash: string, selector: string, count: number, dataPath: RegExp): string {
  return `(() => {
  window.rendered = null;
  performance.clearResourceTimings();
  const observer = new MutationObserver(() => {
    if (document.querySelectorAll(${JSON.stringify(selector)}).length < ${count}) return;
    observer.disconnect();
    const committed = performance.now();
    requestAnimationFrame(() => {
      const painted = new MessageChannel();
      painted.port1.onmessage = () => {
        const now = performance.now();
        const sync = performance.mark('inventory-painted');
        const data = performance.getEntriesByType('resource').filter((e) => ${dataPath}.test(new URL(e.name).pathname));
        window.rendered = { arrived: Math.max(...data.map((e) => e.responseEnd)), committed, painted: now, sync: sync.startTime, fetches: data.length };
      };
      painted.port2.postMessage(0);
    });
  });
  observer.observe(document.body, { childList: true, subtree: true });
  location.hash = ${JSON.stringify(hash)};
})()`;
}

/** The `q` quantile (0–1) of `values`, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}
