/**
 * An opened, discovered upstream session as the connection actor holds it: the
 * {@link UpstreamSession} port over the SDK client, plus watching, pinging and closing.
 * @module
 */
import { performance } from 'node:perf_hooks';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { countCatalog } from './discover.js';
import { once, type Session } from './session.js';
import { traceRequests, type UpstreamRequests } from './trace-requests.js';
import type { LiveUpstream } from './types.js';
import type { CatalogWatch } from './watch-catalog.js';

/** Wrap `session` (already listed by `watch`) as a live upstream of `serverId`. */
export function toLiveUpstream({
  serverId,
  session,
  watch,
  log,
  connectedAt,
  livenessTimeoutMs,
  tracer = null,
}: {
  serverId: string;
  session: Session;
  watch: CatalogWatch;
  log: Logger;
  connectedAt: number;
  /** The ping timeout of a liveness check this connection makes itself (no actor listening). */
  livenessTimeoutMs: number;
  /** Traces on: each request relayed under a span gets a CLIENT span and carries it in `_meta` (issue 21). */
  tracer?: Tracer | null | undefined;
}): LiveUpstream {
  const { client } = session;
  const plain: UpstreamRequests = {
    // The SDK's legacy `toolResult` shape is never asked for: the default schema is the current one.
    callTool: async (params, options) => (await client.callTool(params, undefined, options)) as CallToolResult,
    readResource: (params, options) => client.readResource(params, options),
    getPrompt: (params, options) => client.getPrompt(params, options),
    complete: (params, options) => client.complete(params, options),
    subscribe: async (uri, options) => {
      await client.subscribeResource({ uri }, options);
    },
    unsubscribe: async (uri, options) => {
      await client.unsubscribeResource({ uri }, options);
    },
  };
  // Traces on: requests relayed under a span get a CLIENT span; off, the requests are the plain ones.
  const requests = tracer ? traceRequests(plain, client, tracer, serverId, session.transport) : plain;
  const checkers = new Set<() => void>();
  let lastCheck = Number.NEGATIVE_INFINITY;
  const closed = session.closed.then((error) => {
    watch.stop();
    if (error) log.warn({ err: error }, 'upstream closed unexpectedly');
    return { error };
  });
  log.info({ transport: session.transport, pid: session.pid, ...countCatalog(watch.catalog()) }, 'upstream connected');
  const live: LiveUpstream = {
    serverId,
    transport: session.transport,
    pid: session.pid,
    connectedAt,
    get counts() {
      return countCatalog(watch.catalog());
    },
    catalog: watch.catalog,
    stderr: session.stderr,
    closed,
    watchCatalog: watch.watch,
    capabilities: () => client.getServerCapabilities(),
    serverInfo: () => client.getServerVersion(),
    instructions: () => client.getInstructions(),
    ...requests,
    setLoggingLevel: async (level, options) => {
      await client.setLoggingLevel(level, options);
    },
    rootsChanged: () => client.sendRootsListChanged(),
    async ping(timeoutMs, signal) {
      const start = performance.now();
      await client.ping(signal ? { timeout: timeoutMs, signal } : { timeout: timeoutMs });
      return Math.round((performance.now() - start) * 100) / 100;
    },
    onLivenessCheck(listener) {
      checkers.add(listener);
      return () => checkers.delete(listener);
    },
    checkLiveness() {
      // Many silent calls ask at once: a check begun less than a check's length ago stands for them all.
      const now = performance.now();
      if (now - lastCheck < livenessTimeoutMs) return;
      lastCheck = now;
      if (checkers.size > 0) {
        for (const checker of checkers) checker();
        return;
      }
      // A connection no actor watches (`scope: "session"`) checks itself: failing, it closes.
      void client.ping({ timeout: livenessTimeoutMs }).catch(async (error: unknown) => {
        log.warn({ err: error }, 'liveness check failed; closing the connection');
        await live.close();
      });
    },
    close: once(async () => {
      watch.stop();
      await session.close();
      log.info('upstream closed');
    }),
  };
  return live;
}
