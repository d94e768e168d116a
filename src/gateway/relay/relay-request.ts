/**
 * Relay one agent request to the upstream that owns it (SPEC G4): once it has a place
 * under the in-flight caps (ADR 022), with the server's request timeout, progress relayed
 * back in order before the result, the agent's cancellation relayed upstream, and a clear
 * failure at once when the upstream is not connected or goes away mid-call. Returns its
 * outcome; never throws.
 * @module
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { type Context, SpanKind, type Tracer } from '@opentelemetry/api';
import type { ServerConfig } from '../../config/schema.js';
import { HubError, UnknownServerError, UpstreamLostError, UpstreamTimeoutError } from '../../errors.js';
import type { UpstreamRequestOptions, UpstreamSession } from '../../upstream/types.js';
import type { CallPath } from '../requests/index.js';
import { requestLog, type SessionContext } from '../session/index.js';
import type { Place } from './call-admission.js';
import { connectionKey } from './call-tracker.js';
import { limitTotal } from './limit-total.js';
import { type RequestLimit, requestLimit } from './request-limit.js';
import { watchSilence } from './watch-silence.js';

/** How a step of the call path ended. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** The next step's outcome: `next` of the value, or the same failure. */
export function andThen<T, U>(outcome: Outcome<T>, next: (value: T) => U): Outcome<U> {
  return outcome.ok ? { ok: true, value: next(outcome.value) } : outcome;
}

/**
 * Relay `send` to `server` as a request of `ctx`; `send` gets the connection and the request
 * options. `large`: its arguments are large ({@link isLargeRequest}); `tool`: the upstream
 * name of the tool it calls, whose limit it gets ({@link requestLimit}).
 */
export async function relayRequest<T>(
  path: CallPath,
  ctx: SessionContext,
  server: string,
  send: (upstream: UpstreamSession, options: UpstreamRequestOptions) => Promise<T>,
  large = false,
  tool: string | null = null,
): Promise<Outcome<T>> {
  const config = path.config().mcpServers[server];
  if (!config) return { ok: false, error: new UnknownServerError(server) };
  const limit = requestLimit(path.config(), server, config, tool);
  const shared = config.scope !== 'session';
  const key = connectionKey(server, shared ? null : ctx.session.id);
  // A place under the in-flight caps first (ADR 022); the wait counts against the timeout.
  const place: Place = {
    key,
    server,
    token: ctx.session.clientId ?? ctx.session.id,
    cap: config.maxConcurrentRequests,
    large,
  };
  const waiting = path.admission.enter(place, ctx.signal, limit.ms);
  const since = waiting ? performance.now() : 0;
  // A wait for a place is a guard step of the request's span (issue 21).
  const refused = waiting && (await (ctx.trace && path.tracer ? waitTraced(path.tracer, ctx.trace, waiting) : waiting));
  if (refused) return { ok: false, error: refused };
  let answered = false;
  try {
    return await relayAdmitted(path, ctx, server, config, key, send, {
      limit,
      timeout: waiting ? Math.max(1, limit.ms - (performance.now() - since)) : limit.ms,
      heard: () => {
        answered = true;
      },
    });
  } finally {
    path.admission.leave(place, answered);
  }
}

/** {@link relayRequest} once admitted: `timeout` is what is left of the request's. */
async function relayAdmitted<T>(
  path: CallPath,
  ctx: SessionContext,
  server: string,
  config: ServerConfig,
  key: string,
  send: (upstream: UpstreamSession, options: UpstreamRequestOptions) => Promise<T>,
  { limit, timeout, heard }: { limit: RequestLimit; timeout: number; heard: () => void },
): Promise<Outcome<T>> {
  let upstream: UpstreamSession;
  try {
    upstream = await path.upstreams.connectionFor(ctx.session, server, config);
  } catch (error) {
    return { ok: false, error };
  }
  const sink = ctx.progress;
  // Only a request that progress can keep alive needs a total limit (never below its own).
  const total =
    limit.resetOnProgress && (sink || limit.askProgress)
      ? limitTotal(
          ctx.signal,
          Math.max(limit.maxTotalMs, limit.ms),
          (ms) => new UpstreamTimeoutError(server, ms, limit.maxTotalSetBy, true),
        )
      : null;
  // A connection answering other requests is alive, however long this one takes.
  const silence = watchSilence(upstream, config.livenessCheckAfterMs, () => path.admission.quietFor(key));
  // Progress goes out in order and before the result: the response closes the call's stream.
  let progressSent: Promise<void> = Promise.resolve();
  const options: UpstreamRequestOptions = {
    signal: total?.signal ?? ctx.signal,
    timeout,
    resetTimeoutOnProgress: limit.resetOnProgress,
    trace: ctx.trace,
    // Without a sink the upstream is asked for progress only when its progress extends the
    // limit (a tool call with resetOnProgress); that progress goes no further.
    onprogress: sink
      ? (progress) => {
          silence.heard();
          total?.progressed();
          progressSent = progressSent.then(() => sink(progress)).catch(() => undefined);
        }
      : limit.askProgress
        ? () => {
            silence.heard();
            total?.progressed();
          }
        : undefined,
  };
  const watch = path.losses.watch(server, upstream, config.scope !== 'session');
  try {
    const value = await path.tracker.run({ key, context: ctx, transport: upstream.transport }, () =>
      Promise.race([
        send(upstream, options).then(async (result) => {
          heard();
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
    if (total?.over) return { ok: false, error: total.over };
    if (
      error instanceof McpError &&
      error.code !== ErrorCode.ConnectionClosed &&
      error.code !== ErrorCode.RequestTimeout
    )
      heard();
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return { ok: false, error: new UpstreamLostError(server, 'closed the connection') };
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return { ok: false, error: new UpstreamTimeoutError(server, limit.ms, limit.setBy) };
    }
    if (error instanceof McpError || error instanceof HubError) return { ok: false, error };
    // Anything else came from the SDK client or its transport: a request that could not be
    // sent (a connection closing under it) or an answer that does not parse. The upstream's.
    requestLog(path, ctx).warn({ err: error, server }, 'upstream request failed');
    return { ok: false, error: new UpstreamLostError(server, 'failed', { cause: error }) };
  } finally {
    silence.stop();
    total?.stop();
    watch.dispose();
  }
}

/** `waiting`, as the span `boternity.admission.wait` under `parent`. */
function waitTraced<T>(tracer: Tracer, parent: Context, waiting: Promise<T>): Promise<T> {
  const span = tracer.startSpan('boternity.admission.wait', { kind: SpanKind.INTERNAL }, parent);
  return waiting.finally(() => span.end());
}

/** Relay to the owner `routed` names (the answer comes with its route), or pass its refusal on. */
export async function relayRouted<R extends { readonly server: string }, T>(
  path: CallPath,
  ctx: SessionContext,
  routed: Outcome<R>,
  send: (upstream: UpstreamSession, options: UpstreamRequestOptions, route: R) => Promise<T>,
  large = false,
  tool: ((route: R) => string) | null = null,
): Promise<Outcome<{ route: R; answer: T }>> {
  if (!routed.ok) return routed;
  const route = routed.value;
  const relayed = await relayRequest(
    path,
    ctx,
    route.server,
    (upstream, options) => send(upstream, options, route),
    large,
    tool ? tool(route) : null,
  );
  return andThen(relayed, (answer) => ({ route, answer }));
}
