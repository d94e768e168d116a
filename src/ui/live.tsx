/**
 * The live state every page shares: the servers kept current by the event stream, the
 * stream's own state, and a way for a page to hear events (to reload what they change).
 * @module
 */
import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { LiveEvent } from './api-types.js';
import { openEventStream, type StreamState } from './event-stream.js';
import { applyEvent, fromSnapshot, type LiveServer } from './server-list.js';

/** What {@link useLive} gives. */
export type Live = {
  readonly servers: readonly LiveServer[];
  /** False until the snapshot came. */
  readonly loaded: boolean;
  readonly stream: StreamState;
  subscribe(listener: (event: LiveEvent) => void): () => void;
};

const LiveContext = createContext<Live | null>(null);

/** Opens the stream for its children; `onClosed` runs when the service refuses it (the session ended). */
export function LiveProvider({ children, onClosed }: { children: ComponentChildren; onClosed: () => void }) {
  const [servers, setServers] = useState<readonly LiveServer[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [stream, setStream] = useState<StreamState>('reconnecting');
  const listeners = useRef(new Set<(event: LiveEvent) => void>());
  const closed = useRef(onClosed);
  closed.current = onClosed;

  useEffect(
    () =>
      openEventStream({
        onSnapshot: (snapshot) => {
          setServers(fromSnapshot(snapshot.servers));
          setLoaded(true);
        },
        onEvent: (event) => {
          setServers((list) => applyEvent(list, event));
          for (const listener of listeners.current) listener(event);
        },
        onState: (state) => {
          setStream(state);
          if (state === 'closed') closed.current();
        },
      }),
    [],
  );
  const live = useMemo<Live>(
    () => ({
      servers,
      loaded,
      stream,
      subscribe(listener) {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
    }),
    [servers, loaded, stream],
  );
  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}

/** The shared live state (inside a {@link LiveProvider}). */
export function useLive(): Live {
  const live = useContext(LiveContext);
  if (!live) throw new Error('useLive outside LiveProvider');
  return live;
}

/** Call `listener` for each live event that `wanted` accepts, for as long as the component is mounted. */
export function useLiveEvent(wanted: (event: LiveEvent) => boolean, listener: (event: LiveEvent) => void): void {
  const { subscribe } = useLive();
  const latest = useRef({ wanted, listener });
  latest.current = { wanted, listener };
  useEffect(
    () =>
      subscribe((event) => {
        if (latest.current.wanted(event)) latest.current.listener(event);
      }),
    [subscribe],
  );
}
