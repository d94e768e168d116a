/**
 * A stdio server's stderr, following: read when shown, again at once when the server's state
 * changes (a crash and a restart write there), and every two seconds while it stays open and
 * the tab is visible. The API has no stream of stderr lines, so this one panel asks again;
 * the server list and everything else follow `/api/events` alone (ADR 011).
 * @module
 */
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import { useLiveEvent } from '../live.js';
import { useLoad } from '../use-load.js';
import { ErrorNote } from './error-note.js';

const TAIL = 200;
const FOLLOW_MS = 2000;

/** The log of `server`. */
export function StderrLog({ api, server }: { api: ApiClient; server: string }) {
  const log = useLoad(() => api.stderr(server, TAIL), [server]);
  const box = useRef<HTMLPreElement>(null);
  const atEnd = useRef(true);
  useLiveEvent(
    (event) => event.server === server && ['connecting', 'connected', 'reconnecting', 'disabled'].includes(event.type),
    log.reload,
  );
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') log.reload();
    }, FOLLOW_MS);
    return () => clearInterval(timer);
  }, [log.reload]);
  // Stay at the end while the reader is there; leave them where they scrolled to otherwise.
  useLayoutEffect(() => {
    const element = box.current;
    if (element && atEnd.current) element.scrollTop = element.scrollHeight;
  }, [log.data]);
  const lines = log.data?.lines ?? [];
  return (
    <section aria-labelledby="stderr-title">
      <h2 id="stderr-title">stderr</h2>
      <ErrorNote error={log.error} />
      <pre
        ref={box}
        class="log"
        role="log"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        tabIndex={0}
        aria-label={`stderr of ${server}, last ${TAIL} lines`}
        aria-live="off"
        onScroll={(e) => {
          const el = e.currentTarget;
          atEnd.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
        }}
      >
        {lines.length === 0 ? '(nothing written to stderr)' : lines.join('\n')}
      </pre>
    </section>
  );
}
