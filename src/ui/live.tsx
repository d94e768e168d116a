/**
 * The live state every page shares: the servers kept current by the event stream, how many
 * tools each holds in quarantine (read again when the stream says a hold changed), the
 * stream's own state, and a way for a page to hear events (to reload what they change).
 * @module
 */
import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { LiveEvent, Quarantines } from './api-types.js';
import { openEventStream, type StreamState } from './event-stream.js';
import { applyEvent, countHeld, fromSnapshot, type LiveServer } from './server-list.js';

/** What {@link useLive} gives. */
export type Live = {
  readonly servers: readonly LiveServer[];
  /** False until the snapshot came. */
  readonly loaded: boolean;
  /** Held (quarantined) tools per server; a server with none is absent. */
  readonly held: ReadonlyMap<string, number>;
  readonly stream: StreamState;
  /** The replica this page's stream comes from, whose connections the list shows (null: not said). */
  readonly replica: string | null;
  subscribe(listener: (event: LiveEvent) => void): () => void;
};

const LiveContext = createContext<Live | null>(null);

/** Events after which the held tools are read again. */
const HOLD_CHANGES = new Set(['tool_quarantined', 'tool_approved', 'catalog_churn', 'removed']);

/**
 * Opens the stream for its children; `onClosed` runs when the service refuses it (the session
 * ended); `quarantines` reads the held tools (`GET /api/quarantines`); `changed` runs first on
 * each snapshot and event, so that what is read after it is not answered by a request that
 * started before (the API client's shared reads: its `forget`).
 */
export function LiveProvider({
  children,
  onClosed,
  quarantines,
  changed,
}: {
  children: ComponentChildren;
  onClosed: () => void;
  quarantines: () => Promise<Quarantines>;
  changed: () => void;
}) {
  const [servers, setServers] = useState<readonly LiveServer[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [held, setHeld] = useState<ReadonlyMap<string, number>>(new Map());
  const [stream, setStream] = useState<StreamState>('reconnecting');
  const [replica, setReplica] = useState<string | null>(null);
  const listeners = useRef(new Set<(event: LiveEvent) => void>());
  const closed = useRef(onClosed);
  closed.current = onClosed;
  const readHeld = useRef(quarantines);
  readHeld.current = quarantines;
  const forget = useRef(changed);
  forget.current = changed;
  // The latest read wins: an older answer arriving late is dropped.
  const heldRound = useRef(0);
  const refreshHeld = () => {
    const round = ++heldRound.current;
    readHeld.current().then(
      (answer) => round === heldRound.current && setHeld(countHeld(answer)),
      () => undefined, // the counts stay as they were; the quarantines page says what failed
    );
  };

  useEffect(
    () =>
      openEventStream({
        onSnapshot: (snapshot) => {
          forget.current();
          setServers(fromSnapshot(snapshot.servers));
          setReplica(snapshot.replica ?? null);
          setLoaded(true);
          refreshHeld();
        },
        onEvent: (event) => {
          // A tool call changes no server's state nor any read (one may come per call, many a
          // second): only the pages that listen for it hear of it.
          if (event.type === 'tool_call') {
            for (const listener of listeners.current) listener(event);
            return;
          }
          // A held count read after a tool was approved elsewhere must not be the answer of a
          // read that started before it (the badge stayed at 1).
          forget.current();
          setServers((list) => applyEvent(list, event));
          if (HOLD_CHANGES.has(event.type)) refreshHeld();
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
      held,
      stream,
      replica,
      subscribe(listener) {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
    }),
    [servers, loaded, held, stream, replica],
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
