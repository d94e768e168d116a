/**
 * Transports of remote upstreams (S6): Streamable HTTP, legacy HTTP+SSE, and the `auto`
 * order with the fallback of the MCP spec's backwards-compatibility section.
 * @module
 */
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig } from '../config/schema.js';
import { describeConnectError } from './connect-error.js';
import { RemoteTransport } from './remote-transport.js';

/** A remote transport actually in use. */
export type RemoteKind = 'http' | 'sse';

/** Options of {@link createRemoteTransport}. */
export type CreateRemoteTransportOptions = {
  readonly kind: RemoteKind;
  readonly url: string;
  /** Sent on every request: the POSTs, and for SSE also the event-stream GET. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The server's name, for the errors its answers give. */
  readonly server: string;
  /** The largest message read from the server (`maxAnswerBytes`). */
  readonly maxAnswerBytes: number;
  /** The largest message sent to the server (`maxMessageBytes`). */
  readonly maxMessageBytes?: number | undefined;
  /** Wraps the bounded fetch the SDK transport is given (the notification rate limit's gate, issue 17). */
  readonly wrapFetch?: ((bounded: FetchLike) => FetchLike) | undefined;
};

/** Build (not start) the transport of `kind` for `url`: the SDK's, over our bounded fetch. */
export function createRemoteTransport({
  kind,
  url,
  headers = {},
  server,
  maxAnswerBytes,
  maxMessageBytes,
  wrapFetch,
}: CreateRemoteTransportOptions): RemoteTransport {
  const requestInit = { headers: { ...headers } };
  return new RemoteTransport({
    kind,
    server,
    maxAnswerBytes,
    maxMessageBytes,
    create: (bounded) => {
      // The bound reads the wire first, so a huge event is cut before the gate would parse it.
      const fetch = wrapFetch ? wrapFetch(bounded) : bounded;
      return kind === 'http'
        ? new StreamableHTTPClientTransport(new URL(url), { requestInit, fetch })
        : // Legacy servers still exist (S6); the SDK deprecates this transport but keeps it for them.
          new SSEClientTransport(new URL(url), { requestInit, fetch });
    },
  });
}

/** The kinds to try, in order, for a configured transport. */
export function remoteAttempts(transport: RemoteServerConfig['transport']): readonly RemoteKind[] {
  return transport === 'auto' ? ['http', 'sse'] : [transport];
}

/**
 * True when a failed Streamable HTTP connect means "this is an old HTTP+SSE server": the
 * POST got a 4xx (typically 404 or 405). Network errors are not a reason to fall back.
 */
export function shouldFallBackToSse(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status !== null && status >= 400 && status < 500;
}

/**
 * {@link describeConnectError} for a remote upstream: what its transports' error classes say
 * (an HTTP status, the SSE client's failure without an answer) told to it.
 */
export function describeRemoteError(error: unknown, url?: string): string {
  const noAnswer = error instanceof SseError && error.code === undefined;
  return describeConnectError(error, { url, httpStatus: httpStatusOf(error), noAnswer });
}

/** The HTTP status an SDK transport error carries, or null (network errors, protocol errors). */
export function httpStatusOf(error: unknown): number | null {
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    const code = error.code;
    return typeof code === 'number' && code >= 100 && code <= 599 ? code : null;
  }
  return null;
}
