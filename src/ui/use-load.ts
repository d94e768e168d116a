/**
 * Load something from the API for a component: its data, the error if it failed, and a
 * reload (which pages call when a live event says the data changed).
 * @module
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** What {@link useLoad} gives. */
export type Loaded<T> = {
  readonly data: T | null;
  readonly error: string | null;
  readonly loading: boolean;
  reload(): void;
};

/** Run `load` now and whenever `deps` change or `reload()` is called; a stale answer is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  // The deps the last load was started for: a render with other deps (a new page of the
  // audit, another bot) is loading from that render on, not once the effect has run, so
  // no render pairs the new deps with the old data.
  const loadedFor = useRef<readonly unknown[] | null>(null);
  const stale = loadedFor.current !== null && !sameDeps(loadedFor.current, deps);
  useEffect(() => {
    loadedFor.current = deps;
    const ticket = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => ticket === latest.current && setState({ data, error: null, loading: false }),
      (error: Error) => ticket === latest.current && setState((s) => ({ ...s, error: error.message, loading: false })),
    );
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, loading: state.loading || stale, reload };
}

const sameDeps = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
