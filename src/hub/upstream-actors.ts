/**
 * The real implementations of the connection machine's injected actors: they open,
 * watch, ping and close upstream sessions through `src/upstream/`.
 * @module
 */
import type { Logger } from 'pino';
import { type EventObject, fromCallback, fromPromise } from 'xstate';
import type { ConnectInput, PingInput, PingResult, UpstreamHandle, WatchInput } from '../../machines/index.js';
import { toErrorInfo } from '../../machines/index.js';
import type { ServerConfig } from '../config/schema.js';
import { countCatalog } from '../upstream/discover.js';
import type { StderrSink } from '../upstream/stderr-log.js';
import type { LiveUpstream } from '../upstream/types.js';
import { type PingTraces, tracePing } from './trace-ping.js';

/** Opens a session for a server config; `src/upstream/connect-upstream.ts` in production. */
export type OpenUpstream = (options: {
  serverId: string;
  config: ServerConfig;
  signal: AbortSignal;
  /** The server's stderr log, kept across its restarts. */
  stderr: StderrSink;
}) => Promise<LiveUpstream>;

/** What the actors report to the hub so it can route calls and drain on shutdown. */
export type UpstreamRegistry = {
  opened(upstream: LiveUpstream): void;
  /** The stderr log of a server (created on first use). */
  stderrOf(serverId: string): StderrSink;
  /** Track a pending close (or a connect being abandoned) until it settles. */
  track(work: Promise<unknown>): void;
  closed(upstream: LiveUpstream): void;
};

// The hub is the only producer of specs and handles: specs are validated ServerConfig
// objects, and handles are the LiveUpstream objects returned below.
const asConfig = (spec: ConnectInput['spec']): ServerConfig => spec as ServerConfig;
const asLive = (handle: UpstreamHandle): LiveUpstream => handle as LiveUpstream;

/** Build the `connectUpstream`, `watchUpstream` and `pingUpstream` actors. */
export function createUpstreamActors({
  open,
  registry,
  log,
  now,
  traces,
}: {
  open: OpenUpstream;
  registry: UpstreamRegistry;
  log: Logger;
  now: () => number;
  /** Tracing on: a ping that fails or is slow is a span (issue 21). */
  traces?: PingTraces | null | undefined;
}) {
  const closeUpstream = (upstream: LiveUpstream) => {
    const closing = upstream.close().then(
      () => registry.closed(upstream),
      (error: unknown) => log.warn({ err: error, server: upstream.serverId }, 'upstream close failed'),
    );
    registry.track(closing);
  };

  const connectUpstream = fromPromise<UpstreamHandle, ConnectInput>(async ({ input, signal }) => {
    const opening = open({
      serverId: input.serverId,
      config: asConfig(input.spec),
      signal,
      stderr: registry.stderrOf(input.serverId),
    });
    registry.track(opening.catch(() => undefined));
    const upstream = await opening;
    if (signal.aborted) {
      // The actor was stopped while the session was being opened: nobody will watch it.
      closeUpstream(upstream);
      throw new Error('connect abandoned');
    }
    registry.opened(upstream);
    return upstream;
  });

  const watchUpstream = fromCallback<EventObject, WatchInput>(({ input, sendBack }) => {
    const upstream = asLive(input.handle);
    let active = true;
    void upstream.closed.then(({ error }) => {
      if (active) sendBack({ type: 'upstream.closed', error: error ? toErrorInfo(error) : null });
    });
    const unwatch = upstream.watchCatalog((catalog, changes) => {
      if (active) sendBack({ type: 'upstream.catalog', counts: countCatalog(catalog), changes });
    });
    const unheard = upstream.onLivenessCheck(() => {
      if (active) sendBack({ type: 'upstream.check' });
    });
    return () => {
      active = false;
      unwatch();
      unheard();
      closeUpstream(upstream);
    };
  });

  const pingUpstream = fromPromise<PingResult, PingInput>(async ({ input, signal }) => {
    const ping = () => asLive(input.handle).ping(input.timeoutMs, signal);
    const latencyMs = await (traces ? tracePing(traces, input, signal, ping) : ping());
    return { latencyMs, at: now() };
  });

  return { connectUpstream, watchUpstream, pingUpstream };
}
