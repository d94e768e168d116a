/**
 * Relay one agent request to the upstream that owns it (SPEC G4): with the server's
 * request timeout, progress relayed back in order before the result, the agent's
 * cancellation relayed upstream, and a clear failure at once when the upstream is not
 * connected or goes away mid-call. Returns its outcome; never throws.
 * @module
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { HubError, UnknownServerError, UpstreamLostError, UpstreamTimeoutError } from '../errors.js';
import type { UpstreamRequestOptions, UpstreamSession } from '../upstream/types.js';
import type { CallPath } from './call-path.js';
import { connectionKey } from './call-tracker.js';
import type { SessionContext } from './session-context.js';

/** How a step of the call path ended. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** The next step's outcome: `next` of the value, or the same failure. */
export function andThen<T, U>(outcome: Outcome<T>, next: (value: T) => U): Outcome<U> {
  return outcome.ok ? { ok: true, value: next(outcome.value) } : outcome;
}

/** Relay `send` to `server` as a request of `ctx`; `send` gets the connection and the request options. */
export async function relayRequest<T>(
  path: CallPath,
  ctx: SessionContext,
  server: string,
  send: (upstream: UpstreamSession, options: UpstreamRequestOptions) => Promise<T>,
): Promise<Outcome<T>> {
  const config = path.config().mcpServers[server];
  if (!config) return { ok: false, error: new UnknownServerError(server) };
  let upstream: UpstreamSession;
  try {
    upstream = await path.upstreams.connectionFor(ctx.session, server, config);
  } catch (error) {
    return { ok: false, error };
  }
  const sink = ctx.progress;
  const silence = watchSilence(upstream, config.livenessCheckAfterMs);
  // Progress goes out in order and before the result: the response closes the call's stream.
  let progressSent: Promise<void> = Promise.resolve();
  const options: UpstreamRequestOptions = {
    signal: ctx.signal,
    timeout: config.requestTimeoutMs,
    resetTimeoutOnProgress: true,
    // Without a sink the upstream is not asked for progress at all.
    onprogress: sink
      ? (progress) => {
          silence.heard();
          progressSent = progressSent.then(() => sink(progress)).catch(() => undefined);
        }
      : undefined,
  };
  const shared = config.scope !== 'session';
  const key = connectionKey(server, shared ? null : ctx.session.id);
  const watch = path.losses.watch(server, upstream, shared);
  try {
    const value = await path.tracker.run({ key, context: ctx, transport: upstream.transport }, () =>
      Promise.race([
        send(upstream, options).then(async (result) => {
          await progressSent;
          return result;
        }),
        watch.lost.then((why) => {
          throw new UpstreamLostError(server, why);
        }),
      ]),
    );
    return { ok: true, value };
  } catch (error) {
    // Ended on purpose (shutdown, revocation, the client's cancel): the SDK hands the reason
    // back wrapped as a timeout, so the true one is taken from the signal (X7).
    if (ctx.signal.aborted && ctx.signal.reason instanceof HubError) return { ok: false, error: ctx.signal.reason };
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return { ok: false, error: new UpstreamLostError(server, 'closed the connection') };
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return { ok: false, error: new UpstreamTimeoutError(server, config.requestTimeoutMs) };
    }
    if (error instanceof McpError || error instanceof HubError) return { ok: false, error };
    // Anything else came from the SDK client or its transport: a request that could not be
    // sent (a connection closing under it) or an answer that does not parse. The upstream's.
    path.log.warn({ err: error, server }, 'upstream request failed');
    return { ok: false, error: new UpstreamLostError(server, 'failed', { cause: error }) };
  } finally {
    silence.stop();
    watch.dispose();
  }
}

/**
 * Ask `upstream` to check its connection each time a request has heard nothing (no answer,
 * no progress) for `afterMs` (X8): a stalled server's calls then fail within seconds, not
 * at the next health ping. A live server answers the ping and the call waits on.
 */
function watchSilence(upstream: UpstreamSession, afterMs: number): { heard(): void; stop(): void } {
  let heard = false;
  const timer = setInterval(() => {
    if (!heard) upstream.checkLiveness();
    heard = false;
  }, afterMs);
  timer.unref();
  return {
    heard: () => {
      heard = true;
    },
    stop: () => clearInterval(timer),
  };
}

/** Relay to the owner `routed` names (the answer comes with its route), or pass its refusal on. */
export async function relayRouted<R extends { readonly server: string }, T>(
  path: CallPath,
  ctx: SessionContext,
  routed: Outcome<R>,
  send: (upstream: UpstreamSession, options: UpstreamRequestOptions, route: R) => Promise<T>,
): Promise<Outcome<{ route: R; answer: T }>> {
  if (!routed.ok) return routed;
  const route = routed.value;
  const relayed = await relayRequest(path, ctx, route.server, (upstream, options) => send(upstream, options, route));
  return andThen(relayed, (answer) => ({ route, answer }));
}
