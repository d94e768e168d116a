/**
 * Transports of remote upstreams (S6): Streamable HTTP, legacy HTTP+SSE, and the `auto`
 * order with the fallback of the MCP spec's backwards-compatibility section.
 * @module
 */
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig } from '../config/schema.js';

/** A remote transport actually in use. */
export type RemoteKind = 'http' | 'sse';

/** Options of {@link createRemoteTransport}. */
export type CreateRemoteTransportOptions = {
  readonly kind: RemoteKind;
  readonly url: string;
  /** Sent on every request: the POSTs, and for SSE also the event-stream GET. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch every request goes through (the notification rate limit's, issue 17); default the global one. */
  readonly fetch?: FetchLike | undefined;
};

/** Build (not start) the SDK transport of `kind` for `url`. */
export function createRemoteTransport({ kind, url, headers = {}, fetch }: CreateRemoteTransportOptions): Transport {
  const requestInit = { headers: { ...headers } };
  const options = fetch ? { requestInit, fetch } : { requestInit };
  if (kind === 'http') return new StreamableHTTPClientTransport(new URL(url), options);
  // Legacy servers still exist (S6); the SDK deprecates this transport but keeps it for them.
  return new SSEClientTransport(new URL(url), options);
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

/** The HTTP status an SDK transport error carries, or null (network errors, protocol errors). */
export function httpStatusOf(error: unknown): number | null {
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    const code = error.code;
    return typeof code === 'number' && code >= 100 && code <= 599 ? code : null;
  }
  return null;
}
