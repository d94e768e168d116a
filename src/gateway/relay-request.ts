/**
 * Relay one agent request to the upstream that owns it (SPEC G4): with the server's
 * request timeout, progress relayed back under the agent's token, the agent's
 * cancellation relayed upstream, and a clear error at once when the upstream is not
 * connected or goes away mid-call.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../config/schema.js';
import { HubError, UnknownServerError, UpstreamUnavailableError } from '../errors.js';
import type { LiveUpstream } from '../upstream/types.js';
import type { CallTracker } from './call-tracker.js';
import type { GatewaySession } from './gateway-session.js';
import type { LossWatch } from './loss-watch.js';
import { sanitizeUpstreamText } from './sanitize-requests.js';
import type { ServerExtra } from './server-extra.js';

/** What relaying needs from the gateway. */
export type RelayDeps = {
  tracker: CallTracker;
  /** The connection to use for `server` in `session`: shared or the session's own. */
  upstreamFor(session: GatewaySession, server: string, config: ServerConfig): Promise<LiveUpstream>;
  /** Resolves when `server` is no longer usable for this call (its session ended or it left `connected`). */
  whenLost(server: string, upstream: LiveUpstream, shared: boolean): LossWatch;
  config(server: string): ServerConfig | undefined;
};

/** The upstream went away during the call. */
export class UpstreamLostError extends HubError {
  constructor(server: string, why: string) {
    super('upstream_failed', `server "${server}" ${why} during the call`);
  }
}

/** Relay `run` to `server` as a call of `session`; `run` gets the client and request options. */
export async function relayRequest<T>(
  deps: RelayDeps,
  session: GatewaySession,
  extra: ServerExtra,
  server: string,
  run: (client: Client, options: RequestOptions) => Promise<T>,
): Promise<T> {
  const config = deps.config(server);
  if (!config) throw new UnknownServerError(server);
  const upstream = await deps.upstreamFor(session, server, config);
  const token = extra._meta?.progressToken;
  // Progress goes out in order and before the result: the response closes the call's stream.
  let progressSent: Promise<void> = Promise.resolve();
  const options: RequestOptions = {
    signal: extra.signal,
    timeout: config.requestTimeoutMs,
    resetTimeoutOnProgress: true,
    ...(token === undefined
      ? {}
      : {
          onprogress: (progress) => {
            progressSent = progressSent
              .then(() =>
                extra.sendNotification({
                  method: 'notifications/progress',
                  params: { ...progress, progressToken: token },
                }),
              )
              .catch(() => undefined);
          },
        }),
  };
  const key = config.scope === 'session' ? `${server}#${session.id}` : server;
  const watch = deps.whenLost(server, upstream, config.scope !== 'session');
  try {
    return await deps.tracker.run({ key, session, extra }, () =>
      Promise.race([
        run(upstream.client, options).then(async (result) => {
          await progressSent;
          return result;
        }),
        watch.lost.then((why) => {
          throw new UpstreamLostError(server, why);
        }),
      ]),
    );
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      throw new UpstreamLostError(server, 'closed the connection');
    }
    throw error;
  } finally {
    watch.dispose();
  }
}

/**
 * An error as the agent receives it: the SDK sends `code` and `message` as they are, so
 * this carries no "MCP error N:" prefix (an McpError would get it twice on the far side).
 */
export class WireError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'WireError';
  }
}

/** Map anything thrown while relaying to the error the agent gets; internal failures never become InvalidParams. */
export function toWireError(error: unknown): WireError {
  if (error instanceof WireError) return error;
  if (error instanceof McpError) {
    // An upstream's error text reaches the agent like a result would: sanitized (X4).
    return new WireError(error.code, sanitizeUpstreamText(error.message.replace(/^MCP error -?\d+: /, ''), 2_000));
  }
  if (error instanceof UpstreamUnavailableError || error instanceof UpstreamLostError) {
    return new WireError(ErrorCode.InternalError, error.message);
  }
  if (
    error instanceof HubError &&
    (error.code === 'unknown_server' || error.code === 'unknown_bot' || error.code === 'bad_request')
  ) {
    return new WireError(ErrorCode.InvalidParams, error.message);
  }
  // Anything else is our failure: the agent gets no internals (the caller logs `cause`).
  return new WireError(ErrorCode.InternalError, 'internal error in boternity', undefined, error);
}
